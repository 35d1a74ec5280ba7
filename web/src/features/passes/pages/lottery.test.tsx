import { describe, expect, it } from 'vitest'
import { fireEvent, screen, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, MEMBER_SESSION } from '@/test/fetchStub'
import type { components } from '@/api/schema'

const range = (begin: string, end: string) => ({ begin, end })
const period = (id: string) => ({
  id, availablePeriodToBoard: range('2027-01-10', '2027-04-10'), availablePeriodToBook: range('2026-12-20', '2027-04-01'),
  currencyCode: 'JPY', price: { happy: 54800, happlus: 74800 }, lotteryQuota: 50,
})
const plans = [{ id: 'gp-all', name: 'Peach GoGo Pass', nameAlt: 'All routes', periods: [period('gp-all-next')] },
  { id: 'gp-wd', name: 'Peach GoGo Pass Weekday', nameAlt: 'Weekdays', periods: [period('gp-wd-next')] }]
const entry = (result: 'pending' | 'won' | 'lost', extra: Partial<components['schemas']['GogoPassEntry']> = {}): components['schemas']['GogoPassEntry'] => ({
  id: 'e1', planId: 'gp-wd', periodId: 'gp-wd-next', name: 'Peach GoGo Pass Weekday', nameAlt: 'Weekdays',
  availablePeriodToBoard: range('2027-01-10', '2027-04-10'), availablePeriodToBook: range('2026-12-20', '2027-04-01'),
  fareType: 'happy', result, createdAt: '2026-11-20T01:00:00Z', ...extra,
})
const bought: components['schemas']['PurchasedGogoPass'] = { id: 'p1', code: 'GP-1', planId: 'gp-wd', periodId: 'gp-wd-next', name: 'Peach GoGo Pass Weekday', nameAlt: 'Weekdays',
  availablePeriodToBoard: range('2027-01-10', '2027-04-10'), availablePeriodToBook: range('2026-12-20', '2027-04-01'), fareType: 'happy',
  currencyCode: 'JPY', purchasedPrice: 54800, purchasedAt: '2026-11-25T01:00:00Z', source: 'purchase' }

function stub(entries: components['schemas']['GogoPassEntry'][], wins: components['schemas']['GogoPassEntry'][], passes: components['schemas']['PurchasedGogoPass'][] = []) {
  stubFetch({
    'GET /api/session/info': MEMBER_SESSION,
    'GET /api/gogo_pass_status': { isGogoPassPublic: true, isGogoPassPurchasable: true, isGogoPassLotteryPhase: true, isGogoPassMaintenance: false,
      lotteryDrawAt: '2026-12-01T03:00:00Z' },
    'GET /api/coupon_ticket_status': { isCouponTicketPublic: false },
    'GET /api/gogo_pass': { gogoPasses: plans, purchasable: wins.length > 0, maintenance: false, wins },
    'GET /api/user/gogo_pass': { gogoPasses: passes, entries },
    'GET /api/cc': { creditcards: [] },
    'GET /api/cc/pending': { pending: false },
    'GET /api/payments/pending': { payments: [] },
  })
}

describe('the unlimited pass in its lottery phase', () => {
  it('before an entry: the way to enter and the draw date; no pass can be picked', async () => {
    stub([], [])
    renderApp('/gogo-pass?lang=en')
    const state = await screen.findByRole('region', { name: 'Lottery sale' })
    expect(within(state).getByRole('link', { name: 'Enter the lottery' })).toBeTruthy()
    expect(within(state).getByText(/The draw is on Dec 1, 2026 12:00 \(Japan time\)/)).toBeTruthy()
    expect(screen.queryAllByRole('radio')).toHaveLength(0)
  })

  it('entered: waiting for the draw, which is dated; no pass can be picked', async () => {
    stub([entry('pending')], [])
    renderApp('/gogo-pass?lang=en')
    const state = await screen.findByRole('region', { name: 'Lottery sale' })
    expect(await within(state).findByText('Entered')).toBeTruthy()
    expect(within(state).getByText(/Waiting for the draw\. The draw is on Dec 1, 2026/)).toBeTruthy()
    expect(screen.queryAllByRole('radio')).toHaveLength(0)
    expect(screen.queryByRole('button', { name: 'Buy your pass' })).toBeNull()
  })

  it('won: "Buy your pass" picks the pass won; the others cannot be picked', async () => {
    const won = entry('won', { buyUntil: '2026-12-08T03:00:00Z' })
    stub([won], [won])
    renderApp('/gogo-pass?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Buy your pass' }))
    expect(await screen.findByRole('region', { name: 'Your choice' })).toBeTruthy()
    const radios = screen.getAllByRole('radio') as HTMLInputElement[]
    const wd = radios.filter((r) => r.value === 'gp-wd-next')
    const all = radios.filter((r) => r.value === 'gp-all-next')
    expect(wd[0].checked).toBe(true)
    expect(wd[0].disabled).toBe(false)
    expect(all.every((r) => r.disabled)).toBe(true)
    expect(screen.getByText(/Buy your pass by Dec 8, 2026 12:00 \(Japan time\)/)).toBeTruthy()
  })

  it('bought: says so and leads to My passes; lost: says so', async () => {
    const won = entry('won', { buyUntil: '2026-12-08T03:00:00Z' })
    stub([won], [won], [bought])
    renderApp('/gogo-pass?lang=en')
    const state = await screen.findByRole('region', { name: 'Lottery sale' })
    expect(await within(state).findByText('Bought')).toBeTruthy()
    expect(within(state).getByRole('link', { name: 'My passes' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Buy your pass' })).toBeNull()
  })

  it('lost: not drawn, nothing to pick', async () => {
    stub([entry('lost')], [])
    renderApp('/gogo-pass?lang=en')
    const state = await screen.findByRole('region', { name: 'Lottery sale' })
    expect(await within(state).findByText('Not drawn')).toBeTruthy()
    expect(screen.queryAllByRole('radio')).toHaveLength(0)
  })
})
