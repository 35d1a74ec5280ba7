import type { QueryClient } from '@tanstack/react-query'

/*
 * The pass pages' first data, asked for at startup beside the session check
 * and the page's chunk (routes.tsx, lazyPage's prefetch): api.ts
 * prefetchGogoPassData, prefetchCouponPassData and prefetchPassStatusData
 * say what. The calls load in a chunk of their own, which the shell's
 * bundle, and with it the login page, must not carry (one import() for all
 * three, as each costs the shell's bundle its list of chunks).
 */
const load = () => import('./api')

/** /gogo-pass: the catalogue (when the pass is public) and the member's passes. */
export async function prefetchGogoPassPage(qc: QueryClient): Promise<void> {
  await (await load()).prefetchGogoPassData(qc)
}

/** /coupon-pass: the products (when on sale), the country list and the saved passengers. */
export async function prefetchCouponPassPage(qc: QueryClient): Promise<void> {
  await (await load()).prefetchCouponPassData(qc)
}

/** The home page's pass panel. */
export async function prefetchPassStatus(qc: QueryClient): Promise<void> {
  await (await load()).prefetchPassStatusData(qc)
}
