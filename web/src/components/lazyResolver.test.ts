import { describe, expect, it, vi } from 'vitest'
import type { Resolver, ResolverOptions, ResolverResult } from 'react-hook-form'
import { lazyResolver } from './lazyResolver'

type Form = { name: string }
const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<Form>
const required: Resolver<Form> = async (values): Promise<ResolverResult<Form>> => {
  if (values.name) return { values, errors: {} }
  return { values: {}, errors: { name: { type: 'required', message: 'required' } } }
}

describe('lazyResolver', () => {
  it('loads the rules once, on the first validation, and applies them', async () => {
    const load = vi.fn(() => Promise.resolve(required))
    const resolver = lazyResolver(load)
    expect(load).not.toHaveBeenCalled()
    expect((await resolver({ name: '' }, undefined, options)).errors).toEqual({ name: { type: 'required', message: 'required' } })
    expect((await resolver({ name: 'A' }, undefined, options)).errors).toEqual({})
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('lets the form through to the server when the rules cannot be loaded, and tries again next time', async () => {
    const load = vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValue(required)
    const resolver = lazyResolver<Form>(load)
    expect(await resolver({ name: '' }, undefined, options)).toEqual({ values: { name: '' }, errors: {} })
    expect((await resolver({ name: '' }, undefined, options)).errors).toHaveProperty('name')
    expect(load).toHaveBeenCalledTimes(2)
  })
})
