import { describe, expect, it } from 'vitest'
import { bannerLink, bannerTargetsPath } from './topicBanner'

describe('topic banner', () => {
  it.each([
    ['home', '/', true],
    ['', '/', true],
    ['home', '/bookings', false],
    ['bookings', '/bookings', true],
    ['/bookings', '/bookings', true],
    ['bookings', '/account', false],
    ['points', '/points/sale', true],
    ['all', '/passengers', true],
  ])('target %j on %s → %s', (target, path, want) => expect(bannerTargetsPath(target, path)).toBe(want))

  it('keeps relative links in the app and refuses unsafe ones', () => {
    expect(bannerLink('/bookings')).toEqual({ kind: 'internal', to: '/bookings' })
    expect(bannerLink('/points?tab=sale')).toEqual({ kind: 'internal', to: '/points?tab=sale' })
    expect(bannerLink('https://example.com/news')).toEqual({ kind: 'external', href: 'https://example.com/news' })
    expect(bannerLink('//evil.example')).toEqual({ kind: 'none' })
    expect(bannerLink('javascript:alert(1)')).toEqual({ kind: 'none' })
    expect(bannerLink('')).toEqual({ kind: 'none' })
  })
})
