import type { QueryClient } from '@tanstack/react-query'

/**
 * The points page's first data, asked for at startup beside the session
 * check and the page's chunk (routes.tsx): the summary, at the top of the
 * page, which the page waits for (api.ts useSummary), so that nothing below
 * it moves when it arrives, and the first search, the timeline and the
 * expiring check's first answer (api.ts prefetchFirstData). The calls load in
 * a chunk of their own, which the shell's bundle, and with it the login
 * page, must not carry.
 */
// One import() for both pages: each costs the shell's bundle its list of chunks.
const load = () => import('./api')

export async function prefetchPointsPage(qc: QueryClient): Promise<void> {
  await (await load()).prefetchFirstData(qc)
}

/** The points sale page's first data (api.ts prefetchSaleData), in the same chunk of its own. */
export async function prefetchPointsSalePage(qc: QueryClient): Promise<void> {
  await (await load()).prefetchSaleData(qc)
}
