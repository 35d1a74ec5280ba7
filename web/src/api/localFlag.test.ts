// @vitest-environment jsdom
// (the browser's localStorage)
import { afterEach, describe, expect, it, vi } from 'vitest'
import { localFlag } from './localFlag'

describe('localFlag', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    localStorage.clear()
  })

  it('is off until set, and off again once cleared', () => {
    const flag = localFlag('members.testFlag')
    expect(flag.get()).toBe(false)
    flag.set(true)
    expect(localStorage.getItem('members.testFlag')).toBe('1')
    expect(localFlag('members.testFlag').get()).toBe(true)
    expect(localFlag('members.otherFlag').get()).toBe(false)
    flag.set(false)
    expect(localStorage.getItem('members.testFlag')).toBeNull()
    expect(flag.get()).toBe(false)
  })

  it('reads as off and throws nothing when storage is refused', () => {
    const flag = localFlag('members.testFlag')
    flag.set(true)
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => { throw new DOMException('denied', 'SecurityError') })
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => { throw new DOMException('denied', 'SecurityError') })
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => { throw new DOMException('denied', 'SecurityError') })
    expect(flag.get()).toBe(false)
    expect(() => flag.set(true)).not.toThrow()
    expect(() => flag.set(false)).not.toThrow()
  })
})
