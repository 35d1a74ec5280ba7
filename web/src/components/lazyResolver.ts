import type { FieldValues, Resolver } from 'react-hook-form'

/**
 * A react-hook-form resolver whose rules load when the form is first
 * validated (on submit), not with the page: zod and the forms' schemas are
 * about 22 KiB of compressed script that a phone would otherwise fetch and
 * run before the page shows (docs/speed.md).
 *
 *   const resolver = useMemo(() => lazyResolver(() => import('../schemas').then((m) => zodResolver(m.profileSchema(t)))), [t])
 *
 * Should the rules fail to load (the network dropped), the form is sent as
 * it is and the server, which checks the same rules, answers with the field
 * errors; the next validation tries the load again.
 */
export function lazyResolver<T extends FieldValues, C = unknown, O = T>(load: () => Promise<Resolver<T, C, O>>): Resolver<T, C, O> {
  let loading: Promise<Resolver<T, C, O>> | undefined
  return async (values, context, options) => {
    loading ??= load()
    let resolver: Resolver<T, C, O>
    try {
      resolver = await loading
    } catch {
      loading = undefined
      // (a transforming schema's output is then the form's values as typed: the server checks them)
      return { values: values as unknown as O, errors: {} }
    }
    return resolver(values, context, options)
  }
}
