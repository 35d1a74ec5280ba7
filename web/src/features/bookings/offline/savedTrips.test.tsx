import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen } from '@testing-library/react'
import { renderApp, currentUrl } from '@/test/renderApp'
import { stubFetch, VISITOR_SESSION } from '@/test/fetchStub'
import { setKeepsTrips } from '@/app/pwa/keptFlag'
import type { KeptRecord } from './keptTrips'

const SAVED_AT = new Date()
SAVED_AT.setHours(10, 42, 0, 0)

const record: KeptRecord = {
  memberId: 'm1',
  savedAt: SAVED_AT.getTime(),
  trips: [{
    pnr: 'TPE3XY', statusCode: 'CONFIRMED', status: 'Confirmed',
    passengers: [{ lastname: 'YAMADA', firstname: 'HANAKO', passengerType: 'ADULT' }],
    segments: [{
      key: '1', statusCode: 'CONFIRMED', status: 'Confirmed', flight: 'MM101', flightNumber: '101',
      originAirportCode: 'NRT', originAirport: 'Tokyo (Narita)', originTerminal: '3', originGate: '',
      destinationAirportCode: 'TPE', destinationAirport: 'Taipei (Taoyuan)', destinationTerminal: '1',
      departDateTime: '2099-12-10T09:15:00+09:00', arrivalDateTime: '2099-12-10T12:15:00+08:00', isCancelled: false, isIrregular: false,
    }],
  }],
  itineraries: {},
}

// The kept copy as IndexedDB would give it (jsdom has none).
vi.mock('./store', async (original) => ({ ...(await original<typeof import('./store')>()), readKept: () => Promise.resolve(record) }))

describe('the saved trips of a session that ran out', () => {
  beforeEach(() => setKeepsTrips(true))
  afterEach(() => setKeepsTrips(false))

  it.each([
    ['en', 'Your saved trips — last updated 10:42 (UTC', 'Log in'],
    ['jp', '保存した旅程 — 最終更新 10:42 (UTC', 'ログイン'],
    ['th', 'ทริปที่บันทึกไว้ — อัปเดตล่าสุด 10:42 (UTC', 'เข้าสู่ระบบ'],
  ])('the login page offers them with one pair of brackets, and /saved-trips leads back to the login (%s)', async (lang, label, login) => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION })
    renderApp(`/login?lang=${lang}`)
    const link = await screen.findByRole('link', { name: new RegExp(`^${label.replace(/[()+]/g, '\\$&')}`) })
    expect(link.textContent).toMatch(/\(UTC[+-]\d\d:\d\d\)$/)
    expect(link.textContent).not.toMatch(/\)\)|）\)/)
    fireEvent.click(link)
    await screen.findByText('TPE3XY')
    expect(currentUrl()).toBe(`/saved-trips?lang=${lang}`)
    fireEvent.click(screen.getByRole('link', { name: login }))
    await screen.findByRole('heading', { level: 1, name: login })
    expect(currentUrl()).toBe(`/login?lang=${lang}`)
  })
})
