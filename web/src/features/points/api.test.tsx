import { describe, expect, it } from 'vitest'
import { act, renderHook, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { Suspense, type ReactNode } from 'react'
import { stubFetch, json } from '@/test/fetchStub'
import { useSummary } from './api'

// A client per render (the hook suspends: the wrapper renders again before anything is committed).
function renderSummary() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={qc}>
      <Suspense>{children}</Suspense>
    </QueryClientProvider>
  )
  return renderHook(() => useSummary(), { wrapper })
}

describe('summary load', () => {
  it('a repeat cancels the load in flight', async () => {
    const signals: AbortSignal[] = []
    const entries = [{ currencyCode: 'JPY', currency: 'Japanese yen', group: 'available', amount: 100 }]
    stubFetch({
      'GET /api/peachpoints/summary': async (req) => {
        const n = signals.length
        signals.push(req.signal)
        // the first repeat is slow (and would say 999); the second answers at once
        if (n === 1) {
          await new Promise((r) => setTimeout(r, 300))
          return json([{ ...entries[0], amount: 999 }])
        }
        return json(entries)
      },
    })
    const { result } = renderSummary()
    await waitFor(() => expect(result.current?.data.failed).toBe(false))
    await act(async () => {
      void result.current.refresh()
      await waitFor(() => expect(signals.length).toBe(2))
      await result.current.refresh()
    })
    expect(signals[1].aborted).toBe(true)
    await waitFor(() => expect(result.current.data?.rows.find((r) => r.currencyCode === 'JPY')?.available).toBe(100))
    await new Promise((r) => setTimeout(r, 400))
    expect(result.current.data?.rows.find((r) => r.currencyCode === 'JPY')?.available).toBe(100)
    expect(result.current.data?.failed).toBe(false)
  })

  it('gives placeholder rows for a 500 and for any other failure but 403', async () => {
    for (const status of [500, 502, 404]) {
      stubFetch({ 'GET /api/peachpoints/summary': json({ message: 'x' }, status) })
      const { result, unmount } = renderSummary()
      await waitFor(() => expect(result.current?.data.failed).toBe(true))
      expect(result.current.data?.rows).toHaveLength(7)
      expect(result.current.data?.rows.every((r) => Number.isNaN(r.available))).toBe(true)
      unmount()
    }
  })
})
