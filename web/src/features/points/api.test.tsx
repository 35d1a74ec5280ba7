import { describe, expect, it } from 'vitest'
import { act, renderHook, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { stubFetch, json } from '@/test/fetchStub'
import { useSummary } from './api'

function wrapper({ children }: { children: ReactNode }) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return <QueryClientProvider client={qc}>{children}</QueryClientProvider>
}

describe('summary load', () => {
  it('a repeat cancels the load in flight', async () => {
    const signals: AbortSignal[] = []
    const entries = [{ currencyCode: 'JPY', currency: 'Japanese yen', group: 'available', amount: 100 }]
    stubFetch({
      'GET /api/peachpoints/summary': async (req) => {
        const n = signals.length
        signals.push(req.signal)
        // the first answer is slow (and would say 999); the repeat answers at once
        if (n === 0) {
          await new Promise((r) => setTimeout(r, 300))
          return json([{ ...entries[0], amount: 999 }])
        }
        return json(entries)
      },
    })
    const { result } = renderHook(() => useSummary(), { wrapper })
    await waitFor(() => expect(signals.length).toBe(1))
    await act(async () => {
      await result.current.refresh()
    })
    expect(signals[0].aborted).toBe(true)
    await waitFor(() => expect(result.current.data?.rows.find((r) => r.currencyCode === 'JPY')?.available).toBe(100))
    await new Promise((r) => setTimeout(r, 400))
    expect(result.current.data?.rows.find((r) => r.currencyCode === 'JPY')?.available).toBe(100)
    expect(result.current.data?.failed).toBe(false)
  })

  it('gives placeholder rows for a 500 and for any other failure but 403', async () => {
    for (const status of [500, 502, 404]) {
      stubFetch({ 'GET /api/peachpoints/summary': json({ message: 'x' }, status) })
      const { result, unmount } = renderHook(() => useSummary(), { wrapper })
      await waitFor(() => expect(result.current.data?.failed).toBe(true))
      expect(result.current.data?.rows).toHaveLength(7)
      expect(result.current.data?.rows.every((r) => Number.isNaN(r.available))).toBe(true)
      unmount()
    }
  })
})
