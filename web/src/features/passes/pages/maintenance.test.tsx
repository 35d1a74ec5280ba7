import { describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, MEMBER_SESSION } from '@/test/fetchStub'

const flags = { isGogoPassPublic: true, isGogoPassPurchasable: true, isGogoPassLotteryPhase: false, isGogoPassMaintenance: true }
const windowed = { ...flags, maintenanceFrom: '2026-11-20T03:00:00+09:00', maintenanceUntil: '2026-11-20T05:00:00+09:00' }

function visit(lang: string, status: object) {
  stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/gogo_pass_status': status, 'GET /api/coupon_ticket_status': { isCouponTicketPublic: true } })
  renderApp(`/gogo-pass/maintenance?lang=${lang}`)
}

describe('the maintenance notice', () => {
  it.each([
    ['en', 'from Nov 20, 2026 03:00 to 05:00 (Japan time)'],
    ['jp', '2026年11月20日 03:00から05:00（日本時間）まで'],
    ['th', 'ตั้งแต่ 20 พ.ย. 2569 03:00 ถึง 05:00 น. (เวลาญี่ปุ่น)'],
  ])('names the window the server reports, in Japan time (%s)', async (lang, text) => {
    visit(lang, windowed)
    const notice = await screen.findByRole('status', { name: /maintenance|メンテナンス|ปรับปรุง/i })
    await screen.findByText((_, el) => el?.tagName === 'P' && !!el.textContent?.includes(text))
    expect(notice.textContent).toContain(text)
  })

  it('states no time when the operator closed the sale outside the window', async () => {
    visit('en', flags)
    const notice = await screen.findByRole('status', { name: 'Under maintenance' })
    expect(notice.textContent).toContain('closed for maintenance. Please come back later.')
    expect(notice.textContent).not.toMatch(/\d{1,2}:\d{2}|am|Japan time/)
  })
})
