import { describe, expect, it, vi } from 'vitest'
import source from '../../../public/push-sw.js?raw'

/** The hand-written part of the service worker (public/push-sw.js), run against a fake worker global. */
function worker({ shown = [] as { data: Record<string, unknown> }[], clients = [] as { navigate: (u: string) => Promise<unknown>; focus: () => Promise<unknown> }[] } = {}) {
  const listeners: Record<string, (e: unknown) => void> = {}
  const showNotification = vi.fn(async () => undefined)
  const openWindow = vi.fn(async () => null)
  const self = {
    addEventListener: (type: string, f: (e: unknown) => void) => (listeners[type] = f),
    registration: { getNotifications: async () => shown, showNotification },
    clients: { matchAll: async () => clients.map((c) => ({ ...c, postMessage() {} })), openWindow },
    location: { origin: 'https://members.example' },
  }
  // no trips kept: opening the database is refused
  const indexedDB = { open: () => { throw new Error('no IndexedDB here') } }
  // the script as the worker runs it, with these for its globals
  new Function('self', 'indexedDB', source)(self, indexedDB)
  const fire = async (type: string, event: Record<string, unknown>) => {
    let done: Promise<unknown> = Promise.resolve()
    listeners[type]({ ...event, waitUntil: (p: Promise<unknown>) => (done = p) })
    await done
  }
  return { fire, showNotification, openWindow }
}

const msg = (sequence: number, title = `change ${sequence}`) => ({
  v: 1, title, body: 'KIX → ICN', tag: 'flight-MM001-2026-11-30', url: 'https://members.example/bookings?lang=jp&pnr=HNK7Q2', lang: 'jp',
  flight: 'MM001', date: '2026-11-30', kind: 'delay', sequence, pnrs: ['HNK7Q2'], segment: {},
})
const push = (m: unknown) => ({ data: { json: () => m } })

describe('the service worker shows the pushed flight change', () => {
  it('a first change alerts; a later one replaces it, quietly within a minute and alerting again after', async () => {
    const first = worker()
    await first.fire('push', push(msg(1)))
    const [title, opts] = first.showNotification.mock.calls[0] as unknown as [string, Record<string, unknown>]
    expect(title).toBe('change 1')
    expect(opts).toMatchObject({ body: 'KIX → ICN', tag: 'flight-MM001-2026-11-30', renotify: false, lang: 'ja-JP' })
    const shownAt = (opts.data as { shownAt: number }).shownAt

    const soon = worker({ shown: [{ data: { ...msg(1), shownAt: Date.now() - 30_000 } }] })
    await soon.fire('push', push(msg(2)))
    const [t2, o2] = soon.showNotification.mock.calls[0] as unknown as [string, Record<string, unknown>]
    expect(t2).toBe('change 2')
    expect(o2.renotify).toBe(false)
    expect((o2.data as { shownAt: number }).shownAt).toBeLessThan(shownAt)

    const later = worker({ shown: [{ data: { ...msg(1), shownAt: Date.now() - 61_000 } }] })
    await later.fire('push', push(msg(2)))
    expect((later.showNotification.mock.calls[0] as unknown as [string, Record<string, unknown>])[1].renotify).toBe(true)
  })

  it('a change older than the one shown, or the same again, leaves the newer one, quietly', async () => {
    for (const late of [1, 3]) {
      const w = worker({ shown: [{ data: { ...msg(3, 'newest'), shownAt: Date.now() - 120_000 } }] })
      await w.fire('push', push(msg(late)))
      const [title, opts] = w.showNotification.mock.calls[0] as unknown as [string, Record<string, unknown>]
      expect(title).toBe('newest')
      expect(opts.renotify).toBe(false)
    }
  })

  it('ignores what is not the server\'s message', async () => {
    const w = worker()
    await w.fire('push', { data: { json: () => { throw new SyntaxError('not JSON') } } })
    await w.fire('push', push({ title: 'x' }))
    expect(w.showNotification).not.toHaveBeenCalled()
  })
})

describe('a tap on the notification', () => {
  it('opens the booking in the open window of the app, on this origin only', async () => {
    const navigate = vi.fn(async (u: string) => ({ url: u }))
    const w = worker({ clients: [{ navigate, focus: async () => undefined }] })
    const close = vi.fn()
    await w.fire('notificationclick', { notification: { close, data: { url: 'https://elsewhere.example/bookings?lang=th&pnr=HNK7Q2' } } })
    expect(close).toHaveBeenCalled()
    expect(navigate).toHaveBeenCalledWith('https://members.example/bookings?lang=th&pnr=HNK7Q2')
    expect(w.openWindow).not.toHaveBeenCalled()
  })

  it('opens a new window when the app is not open', async () => {
    const w = worker()
    await w.fire('notificationclick', { notification: { close() {}, data: { url: 'https://members.example/bookings?lang=en&pnr=HNK7Q2' } } })
    expect(w.openWindow).toHaveBeenCalledWith('https://members.example/bookings?lang=en&pnr=HNK7Q2')
  })
})
