import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, json, MEMBER_SESSION } from '@/test/fetchStub'

const reservation = {
  pnr: 'HNK7Q2',
  bookingDate: '2026-10-31',
  statusCode: 'CONFIRMED',
  status: 'Confirmed',
  isOutdated: false,
  passengers: [],
  segments: [],
}

describe('calendar on the bookings page', () => {
  it('links each booking to its .ics file in the page language', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': json({ reservations: [reservation], perPage: 10, currentPage: 1, total: 1, totalPages: 1 }),
      'GET /api/calendar/subscription': { active: false },
    })
    renderApp('/bookings?lang=jp')
    const card = await screen.findByRole('article', { name: /HNK7Q2/ })
    // In the booking's "More" menu.
    fireEvent.click(within(card).getByRole('button', { name: 'その他' }))
    const link = within(card).getByRole('menuitem', { name: 'カレンダーに追加 (.ics)' })
    expect(link.getAttribute('href')).toBe('/api/reservations/HNK7Q2/calendar.ics?lang=jp')
    expect(link.getAttribute('download')).toBe('booking-HNK7Q2.ics')
  })

  it('makes a private link, shows it once, and asks before renewing', async () => {
    let active = false
    let posts = 0
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': json({ reservations: [], perPage: 10, currentPage: 1, total: 0, totalPages: 0 }),
      'GET /api/calendar/subscription': () =>
        json(active ? { active: true, createdAt: '2026-11-20T06:00:00Z' } : { active: false }),
      'POST /api/calendar/subscription': () => {
        posts++
        active = true
        return json({ url: `https://members.example.com/api/calendar/feed.ics?token=tok${posts}&lang=en`, createdAt: '2026-11-20T06:00:00Z' })
      },
    })
    renderApp('/bookings?lang=en')
    const section = await screen.findByRole('region', { name: 'Your flights in your calendar' })
    fireEvent.click(await within(section).findByRole('button', { name: 'Create my private calendar link' }))
    const field = (await within(section).findByLabelText('Your private calendar address')) as HTMLInputElement
    expect(field.value).toBe('https://members.example.com/api/calendar/feed.ics?token=tok1&lang=en')
    expect(within(section).getByRole('link', { name: 'Open in calendar app' }).getAttribute('href')).toBe(
      'webcal://members.example.com/api/calendar/feed.ics?token=tok1&lang=en',
    )
    await within(section).findByText(/has been active since/)

    fireEvent.click(within(section).getByRole('button', { name: 'Renew link' }))
    const dialog = await screen.findByRole('dialog', { name: 'Renew your calendar link?' })
    expect(posts).toBe(1)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Renew link' }))
    await waitFor(() => expect(field.isConnected ? field.value : (screen.getByLabelText('Your private calendar address') as HTMLInputElement).value).toContain('tok2'))
    expect(posts).toBe(2)
  })
})
