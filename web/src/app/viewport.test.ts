import { describe, expect, it } from 'vitest'
import { viewportContent } from './viewport'

describe('viewport', () => {
  it('fixes wider touch tablets at 1080 px', () => {
    expect(viewportContent(820, true)).toBe('width=1080')
    expect(viewportContent(375, true)).toBe('width=device-width, initial-scale=1')
    expect(viewportContent(1280, false)).toBe('width=device-width, initial-scale=1')
    expect(viewportContent(900, false)).toBe('width=device-width, initial-scale=1')
  })
})
