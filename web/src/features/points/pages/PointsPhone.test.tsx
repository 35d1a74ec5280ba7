import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, MEMBER_SESSION } from '@/test/fetchStub'

const summary = ['JPY', 'SGD'].flatMap((c) =>
  (['available', 'expireThisMonth', 'expireNextMonth'] as const).map((group) => ({ currencyCode: c, currency: c, group, amount: group === 'available' ? 8000 : 0 })),
)

/** A window of the given width as far as media queries go. */
function widthIs(px: number) {
  vi.stubGlobal('matchMedia', (q: string) => {
    const max = /max-width:\s*(\d+)px/.exec(q)
    return { matches: max ? px <= Number(max[1]) : false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} }
  })
}

function visit() {
  stubFetch({
    'GET /api/session/info': MEMBER_SESSION,
    'GET /api/peachpoints/summary': summary,
    'GET /api/peachpoints': { peachpoints: [], perPage: 10, currentPage: 1, total: 0, totalPages: 0 },
    'GET /api/peachpoints/timeline': { months: [] },
    'GET /api/peachpoints/expired_in': { month: '2026-11', currencyCode: 'JPY', amount: 3000, peachpoints: [] },
  })
  renderApp('/points?lang=en')
}

afterEach(() => vi.unstubAllGlobals())

describe('points overview on a phone', () => {
  it('shows the balance, then the actions, then the rest folded under disclosure buttons', async () => {
    widthIs(375)
    visit()
    const balance = await screen.findByRole('region', { name: 'Points balance' })
    const actions = screen.getByRole('navigation', { name: /points/i })
    expect(balance.compareDocumentPosition(actions) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(within(actions).getByRole('link', { name: /buy/i })).toBeTruthy()
    for (const name of ['Search points', 'What expires when', 'Wallet']) {
      const toggle = screen.getByRole('button', { name })
      expect(toggle.getAttribute('aria-expanded')).toBe('false')
      const body = document.getElementById(toggle.getAttribute('aria-controls')!)!
      expect(body.hidden).toBe(true)
      expect(actions.compareDocumentPosition(toggle) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
      fireEvent.click(toggle)
      expect(toggle.getAttribute('aria-expanded')).toBe('true')
      expect(body.hidden).toBe(false)
    }
    expect(screen.getByRole('heading', { name: 'Search points' })).toBeTruthy()
  })

  it('folds nothing on a wide screen', async () => {
    widthIs(1280)
    visit()
    await screen.findByRole('region', { name: 'Points balance' })
    expect(screen.queryByRole('button', { name: 'Search points' })).toBeNull()
    expect(screen.getByRole('heading', { name: 'What expires when' })).toBeTruthy()
    expect(screen.getByRole('search', { name: 'Search points' })).toBeTruthy()
  })
})
