import type { QueryClient } from '@tanstack/react-query'

/**
 * The payment data a page shows first, asked for at startup beside the
 * session check (routes.tsx, lazyPage's prefetch; api.ts prefetchPendingData):
 * `card`, the member's pending card payment (GET /api/cc/pending); `later`,
 * the payments left for later (GET /api/payments/pending). The calls load in
 * a chunk of their own, which the shell's bundle, and with it the login
 * page, must not carry.
 */
export async function prefetchPendingPayments(qc: QueryClient, which: { card?: boolean; later?: boolean }): Promise<void> {
  const { prefetchPendingData } = await import('./api')
  await prefetchPendingData(qc, which)
}
