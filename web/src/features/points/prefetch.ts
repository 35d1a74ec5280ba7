import type { QueryClient } from '@tanstack/react-query'

/**
 * The points page's first data, asked for at startup beside the session
 * check and the page's chunk (routes.tsx): the summary, at the top of the
 * page, which the page waits for (api.ts useSummary), so that nothing below
 * it moves when it arrives. The calls load in a chunk of their own: the
 * feature's api.ts brings its form rules (zod), which the shell's bundle,
 * and with it the login page, must not carry.
 */
export async function prefetchPointsPage(qc: QueryClient): Promise<void> {
  const { prefetchSummary } = await import('./api')
  await prefetchSummary(qc)
}
