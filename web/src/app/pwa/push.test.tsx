import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { TranslationProvider } from '@/i18n/translation'
import { createI18n } from '@/i18n/i18n'
import type { Lang } from '@/i18n/languages'
import { json, status, stubFetch } from '@/test/fetchStub'
import { PushToggle } from './PushToggle'
import { keyBytes, pushSupport } from './push'
import { forgetPushIfAny, pushMember } from './pushChoice'

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'
const IPAD = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'
const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const KEY = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U'

/** A window as pushSupport reads it. */
function fakeWindow(ua: string, { push = true, standalone = false, permission = 'default', touch = 0 } = {}): Window {
  const nav: Record<string, unknown> = { userAgent: ua, maxTouchPoints: touch }
  if (push) nav.serviceWorker = {}
  const win: Record<string, unknown> = { navigator: nav, matchMedia: () => ({ matches: standalone }) }
  if (push) Object.assign(win, { PushManager: class {}, Notification: { permission } })
  return win as unknown as Window
}

describe('what a device can do', () => {
  it.each([
    ['an Android phone with push', fakeWindow(PIXEL), 'ready'],
    ['notifications refused for the site', fakeWindow(PIXEL, { permission: 'denied' }), 'blocked'],
    ['a browser without the Push API', fakeWindow(PIXEL, { push: false }), 'unsupported'],
    ['an iPhone in Safari (outside the home screen)', fakeWindow(IPHONE), 'installFirst'],
    ['an iPhone in Safari without the Push API', fakeWindow(IPHONE, { push: false }), 'installFirst'],
    ['an iPad, which says it is a Mac', fakeWindow(IPAD, { touch: 5 }), 'installFirst'],
    ['the app on an iPhone home screen', fakeWindow(IPHONE, { standalone: true }), 'ready'],
    ['an old iPhone home-screen app (before iOS 16.4)', fakeWindow(IPHONE, { standalone: true, push: false }), 'unsupported'],
    ['a Mac (no touch screen)', fakeWindow(IPAD), 'ready'],
  ])('%s', (_, win, want) => {
    expect(pushSupport(win)).toBe(want)
  })

  it('reads the server key as the 65 bytes of its point', () => {
    const b = keyBytes(KEY)
    expect(b.length).toBe(65)
    expect(b[0]).toBe(4)
  })
})

/** The browser side of push in jsdom: a service worker registration, its push manager and the permission prompt. */
function fakePush(permissionAnswer: NotificationPermission = 'granted') {
  let sub: { endpoint: string; options: { applicationServerKey: ArrayBuffer }; toJSON(): object; unsubscribe: () => Promise<boolean> } | null = null
  const subscribe = vi.fn(async (opts: { applicationServerKey: Uint8Array }) => {
    const key = opts.applicationServerKey.slice().buffer
    sub = {
      endpoint: 'https://fcm.googleapis.com/fcm/send/device-1',
      options: { applicationServerKey: key },
      toJSON: () => ({ endpoint: 'https://fcm.googleapis.com/fcm/send/device-1', expirationTime: null, keys: { p256dh: 'BP256', auth: 'AUTH' } }),
      unsubscribe: unsubscribe,
    }
    return sub
  })
  const unsubscribe = vi.fn(async () => {
    sub = null
    return true
  })
  const reg = { pushManager: { subscribe, getSubscription: async () => sub } }
  const notification = { permission: 'default' as NotificationPermission, requestPermission: vi.fn(async () => (notification.permission = permissionAnswer)) }
  vi.stubGlobal('PushManager', class {})
  vi.stubGlobal('Notification', notification)
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve(reg), getRegistration: async () => reg, addEventListener() {}, removeEventListener() {} },
  })
  return { subscribe, unsubscribe, notification }
}

afterEach(() => {
  vi.unstubAllGlobals()
  delete (navigator as { serviceWorker?: unknown }).serviceWorker
})

function renderToggle(lang: Lang = 'en') {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <TranslationProvider i18n={createI18n(lang)}>
        <PushToggle />
      </TranslationProvider>
    </QueryClientProvider>,
  )
}

describe('PushToggle', () => {
  it('is off by default; a press asks the permission, subscribes with the server key and gives the server the subscription', async () => {
    const browser = fakePush()
    let put: unknown
    stubFetch({
      'GET /api/user': { profileId: 'member-1' },
      'GET /api/push/vapid_key': { publicKey: KEY },
      'PUT /api/push/subscription': (req) => {
        put = JSON.parse(req.body ?? '{}')
        return json({ id: 'd1', current: true, switchedOnAt: '2026-11-20T06:00:00Z', device: { browser: 'Chrome 131', os: 'Android', kind: 'mobile' } })
      },
      'DELETE /api/push/subscription': 204,
    })
    renderToggle()
    const box = (await screen.findByRole('checkbox', { name: 'Notify me on this device about changes to my flights' })) as HTMLInputElement
    await waitFor(() => expect(box.disabled).toBe(false))
    expect(box.checked).toBe(false)
    // Nothing asked of the browser before the member's press.
    expect(browser.notification.requestPermission).not.toHaveBeenCalled()
    expect(browser.subscribe).not.toHaveBeenCalled()
    fireEvent.click(box)
    await screen.findByText('On: this device is notified of changes to your flights.')
    expect(box.checked).toBe(true)
    expect(browser.notification.requestPermission).toHaveBeenCalledTimes(1)
    const opts = browser.subscribe.mock.calls[0][0]
    expect((opts as unknown as { userVisibleOnly: boolean }).userVisibleOnly).toBe(true)
    expect([...opts.applicationServerKey]).toEqual([...keyBytes(KEY)])
    expect(put).toEqual({ endpoint: 'https://fcm.googleapis.com/fcm/send/device-1', expirationTime: null, keys: { p256dh: 'BP256', auth: 'AUTH' } })
    expect(pushMember()).toBe('member-1')

    // Off: the server forgets it, then the browser's subscription ends.
    fireEvent.click(box)
    await waitFor(() => expect(browser.unsubscribe).toHaveBeenCalledTimes(1))
    expect(box.checked).toBe(false)
    expect(pushMember()).toBeNull()
  })

  it('says so when the member refuses the permission', async () => {
    const browser = fakePush('denied')
    stubFetch({ 'GET /api/user': { profileId: 'member-1' }, 'GET /api/push/vapid_key': { publicKey: KEY } })
    renderToggle()
    const box = (await screen.findByRole('checkbox', { name: 'Notify me on this device about changes to my flights' })) as HTMLInputElement
    await waitFor(() => expect(box.disabled).toBe(false))
    fireEvent.click(box)
    await screen.findByText(/Notifications from this site are blocked in your browser/)
    expect(box.checked).toBe(false)
    expect(box.disabled).toBe(true)
    expect(browser.subscribe).not.toHaveBeenCalled()
  })

  it('a server that offers no push says so', async () => {
    fakePush()
    stubFetch({ 'GET /api/user': { profileId: 'member-1' }, 'GET /api/push/vapid_key': status(503) })
    renderToggle()
    const box = (await screen.findByRole('checkbox', { name: 'Notify me on this device about changes to my flights' })) as HTMLInputElement
    await waitFor(() => expect(box.disabled).toBe(false))
    fireEvent.click(box)
    await screen.findByText('Notifications to devices are not offered just now. Flight changes still reach you by e-mail.')
    expect(box.checked).toBe(false)
  })

  it.each([
    ['en', 'This device or browser cannot receive notifications. Flight changes still reach you by e-mail.'],
    ['jp', 'この端末またはブラウザーは通知を受け取れません。フライトの変更は引き続きメールでお知らせします。'],
    ['th', 'อุปกรณ์หรือเบราว์เซอร์นี้รับการแจ้งเตือนไม่ได้ เรายังคงแจ้งการเปลี่ยนแปลงเที่ยวบินทางอีเมล'],
  ] as [Lang, string][])('a device without push says so plainly (%s)', async (lang, text) => {
    stubFetch({})
    renderToggle(lang)
    await screen.findByText(text)
    expect((screen.getByRole('checkbox') as HTMLInputElement).disabled).toBe(true)
  })

  it('an iPhone outside the home screen is told to install the app first', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPHONE)
    stubFetch({})
    renderToggle()
    await screen.findByText(/add this app to your Home Screen first/)
    expect((screen.getByRole('checkbox') as HTMLInputElement).disabled).toBe(true)
  })
})

describe('forgetPushIfAny', () => {
  it('ends the browser subscription and the choice of a device that had them on, and loads nothing elsewhere', async () => {
    await forgetPushIfAny() // off: nothing to do
    const browser = fakePush()
    stubFetch({
      'GET /api/user': { profileId: 'member-1' },
      'GET /api/push/vapid_key': { publicKey: KEY },
      'PUT /api/push/subscription': json({ id: 'd1', current: true, switchedOnAt: '2026-11-20T06:00:00Z', device: { browser: '', os: '', kind: 'unknown' } }),
    })
    const { switchPushOn } = await import('./push')
    await switchPushOn('member-1')
    expect(pushMember()).toBe('member-1')
    await forgetPushIfAny()
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1)
    expect(pushMember()).toBeNull()
  })
})

describe('renewPush after a login', () => {
  it('renews the member\'s device under the new session, once a tab; one switched off elsewhere ends here too', async () => {
    const browser = fakePush()
    const renewals: string[] = []
    let answer = 200
    stubFetch({
      'GET /api/user': { profileId: 'member-1' },
      'GET /api/push/vapid_key': { publicKey: KEY },
      'PUT /api/push/subscription': (req) => {
        renewals.push(req.url.search)
        return answer === 200
          ? json({ id: 'd1', current: true, switchedOnAt: '2026-11-20T06:00:00Z', device: { browser: '', os: '', kind: 'unknown' } })
          : json({ message: 'not found' }, answer)
      },
    })
    const { renewPush, switchPushOn } = await import('./push')
    await switchPushOn('member-1')
    renewals.length = 0
    await renewPush('member-1')
    await renewPush('member-1')
    expect(renewals).toEqual(['?renew=true'])
    expect(pushMember()).toBe('member-1')

    // A new tab's session, the device switched off from the security centre meanwhile.
    window.sessionStorage.clear()
    answer = 404
    await renewPush('member-1')
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1)
    expect(pushMember()).toBeNull()
  })

  it("another member's login ends the previous member's alerts on the device", async () => {
    const browser = fakePush()
    stubFetch({
      'GET /api/user': { profileId: 'member-1' },
      'GET /api/push/vapid_key': { publicKey: KEY },
      'PUT /api/push/subscription': json({ id: 'd1', current: true, switchedOnAt: '2026-11-20T06:00:00Z', device: { browser: '', os: '', kind: 'unknown' } }),
    })
    const { renewPush, switchPushOn } = await import('./push')
    await switchPushOn('member-1')
    await renewPush('member-2')
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1)
    expect(pushMember()).toBeNull()
  })
})
