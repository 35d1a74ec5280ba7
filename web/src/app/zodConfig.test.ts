import { expect, it } from 'vitest'
import './zodConfig'
import { z } from 'zod'
import { z as mini } from 'zod/mini'

it("turns zod's code generation off for zod and zod/mini", () => {
  expect(z.config().jitless).toBe(true)
  expect(mini.config().jitless).toBe(true)
  // and schemas still parse
  expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' })
})
