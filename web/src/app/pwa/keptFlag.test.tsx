import { afterEach, describe, expect, it } from 'vitest'
import { keepsTrips, mayHoldTrips, setErasing, setKeepsTrips } from './keptFlag'

describe('the kept-trips flag', () => {
  afterEach(() => localStorage.clear())

  it('writes nothing while an erasure runs, yet still knows a copy may be there until it ends', () => {
    setKeepsTrips(true)
    expect([keepsTrips(), mayHoldTrips()]).toEqual([true, true])
    setErasing(true)
    expect([keepsTrips(), mayHoldTrips()]).toEqual([false, true])
    setKeepsTrips(false)
    setErasing(false)
    expect([keepsTrips(), mayHoldTrips()]).toEqual([false, false])
    expect(localStorage.getItem('members.keptTrips')).toBeNull()
  })

  it('an erasure a closed page left unfinished is still to be done, the choice gone or not', () => {
    setErasing(true)
    expect(mayHoldTrips()).toBe(true)
  })
})
