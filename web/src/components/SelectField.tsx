import type { ReactNode, SelectHTMLAttributes } from 'react'
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form'
import { FieldWrapper, useFieldIds } from './Field'

export interface SelectOption {
  value: string
  label: string
  /** The option's language (BCP 47), when it differs from the page's. */
  lang?: string
}

/**
 * A long option list (the countries, about 250) built once as DOM nodes and
 * cloned into each select that shows it: the browser copies the nodes in one
 * call, where rendering them as elements costs a virtual node, a diff and an
 * insertion per option on every render (three country selects on the account
 * page were about 750 options in the page's first render). Make one per list
 * (useMemo on the list), share it between the selects.
 *
 * A select's first fill is lazy: the placeholder and the saved choice only,
 * the whole list when the browser is next idle or as soon as the member
 * reaches the select (pointer, focus, key), whichever comes first. Creating
 * and styling 750 options was about 65 ms of a phone's CPU while the page
 * loads. react-hook-form sets the saved choice through the select's `value`
 * property, so until the list is in, setting `value` adds that one option.
 */
export class OptionList {
  // Built by the first full fill.
  private template: DocumentFragment | undefined
  // The placeholder each select was completely filled with, so a re-render changes nothing.
  private readonly filled = new WeakMap<HTMLSelectElement, string | undefined>()
  // Selects whose first fill is waiting for the whole list, and how to end the wait.
  private readonly waiting = new WeakMap<HTMLSelectElement, () => void>()

  constructor(private readonly options: readonly SelectOption[]) {}

  private nodes(): DocumentFragment {
    if (!this.template) {
      this.template = document.createDocumentFragment()
      for (const o of this.options) this.template.append(new Option(o.label, o.value))
    }
    return this.template
  }

  /**
   * Puts the placeholder and the options into select, keeping its value: a
   * new select gets them lazily (above), a select filled before (from another
   * list, or with another placeholder: a language switch) at once.
   */
  fill(select: HTMLSelectElement, placeholder: string | undefined): void {
    if (this.filled.has(select) && this.filled.get(select) === placeholder) return
    if (this.waiting.has(select)) return
    if (select.options.length === 0) this.fillLater(select, placeholder)
    else this.fillNow(select, placeholder)
  }

  private fillNow(select: HTMLSelectElement, placeholder: string | undefined): void {
    // Back to the element's own value property: a lazy fill still waiting
    // (this list's, or another language's) then finds it is not needed.
    delete (select as { value?: string }).value
    const value = select.value
    select.replaceChildren(...placeholderOption(placeholder), this.nodes().cloneNode(true))
    if (value) select.value = value
    this.filled.set(select, placeholder)
  }

  private fillLater(select: HTMLSelectElement, placeholder: string | undefined): void {
    select.replaceChildren(...placeholderOption(placeholder))
    const native = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!
    const set = (v: string) => {
      this.addOption(select, String(v))
      native.set!.call(select, v)
    }
    Object.defineProperty(select, 'value', { configurable: true, get: () => native.get!.call(select), set })
    const events = ['pointerdown', 'focus', 'keydown'] as const
    const complete = () => {
      cancelIdle(idle)
      for (const type of events) select.removeEventListener(type, complete)
      this.waiting.delete(select)
      if (Object.getOwnPropertyDescriptor(select, 'value')?.set === set) this.fillNow(select, placeholder)
    }
    const idle = whenIdle(complete)
    for (const type of events) select.addEventListener(type, complete)
    this.waiting.set(select, complete)
  }

  /** The option of value, if the list has it and the select does not yet. */
  private addOption(select: HTMLSelectElement, value: string): void {
    if (!value || [...select.options].some((o) => o.value === value)) return
    const o = this.options.find((x) => x.value === value)
    if (o) select.append(new Option(o.label, o.value))
  }
}

function placeholderOption(placeholder: string | undefined): HTMLOptionElement[] {
  return placeholder !== undefined ? [new Option(placeholder, '')] : []
}

// requestIdleCallback where the browser has it (not Safari), else a task.
function whenIdle(run: () => void): number {
  return typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 2000 }) : Number(setTimeout(run, 50))
}
function cancelIdle(id: number): void {
  if (typeof cancelIdleCallback === 'function') cancelIdleCallback(id)
  else clearTimeout(id)
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'children'> {
  /** Visible label text. */
  label: ReactNode
  /** What register('name') returned. */
  registration: UseFormRegisterReturn
  /** formState.errors.<name> */
  error?: FieldError
  /** Help text under the select (linked with aria-describedby). */
  hint?: ReactNode
  /** A short list as elements, or a long shared one (OptionList). */
  options: readonly SelectOption[] | OptionList
  /** The first option, of value "" ("Choose", "Any airport"). */
  placeholder?: string
}

/**
 * A labelled select for react-hook-form, in the same wrapper as Field: the
 * label is tied to the select, hint and error are linked with
 * aria-describedby, aria-invalid and aria-required are set.
 *
 *   <SelectField label={t('search.airport')} registration={register('airportCode')}
 *                placeholder={t('search.anyAirport')} options={airportOptions} />
 */
export function SelectField({ id, label, registration, error, hint, options, placeholder, required, className, ...rest }: SelectFieldProps) {
  const ids = useFieldIds(hint, error, id)
  // A shared list goes in before react-hook-form's ref sets the saved value.
  const ref = options instanceof OptionList
    ? (el: HTMLSelectElement | null) => {
        if (el) options.fill(el, placeholder)
        registration.ref(el)
      }
    : registration.ref
  return (
    <FieldWrapper ids={ids} label={label} required={required} error={error} hint={hint} className={className}>
      <select id={ids.id} className="field__input" aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy} aria-required={required || undefined} {...rest} {...registration} ref={ref}>
        {!(options instanceof OptionList) && placeholder !== undefined && <option value="">{placeholder}</option>}
        {!(options instanceof OptionList) && options.map((o) => (
          <option key={o.value} value={o.value} lang={o.lang}>{o.label}</option>
        ))}
      </select>
    </FieldWrapper>
  )
}
