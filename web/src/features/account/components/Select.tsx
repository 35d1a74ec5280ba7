import { useId, type ReactNode, type SelectHTMLAttributes } from 'react'
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form'

export interface SelectOption {
  value: string
  label: string
}

/**
 * A long option list (the countries, about 250) built once as DOM nodes and
 * cloned into each select that shows it: the browser copies the nodes in one
 * call, where rendering them as elements costs a virtual node, a diff and an
 * insertion per option on every render (three country selects on the account
 * page were about 750 options in the page's first render). Make one per list
 * (useMemo on the list), share it between the selects.
 */
export class OptionList {
  // Built by the first fill: the page that makes the list may show its selects in a later task (Later).
  private template: DocumentFragment | undefined
  // The placeholder each select was filled with, so a re-render changes nothing.
  private readonly filled = new WeakMap<HTMLSelectElement, string | undefined>()

  constructor(private readonly options: readonly SelectOption[]) {}

  private nodes(): DocumentFragment {
    if (!this.template) {
      this.template = document.createDocumentFragment()
      for (const o of this.options) this.template.append(new Option(o.label, o.value))
    }
    return this.template
  }

  /** Puts the placeholder and the options into select (once; again after a change of list or placeholder), keeping its value. */
  fill(select: HTMLSelectElement, placeholder: string | undefined): void {
    if (this.filled.has(select) && this.filled.get(select) === placeholder) return
    const value = select.value
    const nodes: Node[] = placeholder !== undefined ? [new Option(placeholder, '')] : []
    select.replaceChildren(...nodes, this.nodes().cloneNode(true))
    if (value) select.value = value
    this.filled.set(select, placeholder)
  }
}

interface Props extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name'> {
  label: ReactNode
  registration: UseFormRegisterReturn
  error?: FieldError
  /** A short list as elements, or a long shared one (OptionList). */
  options: SelectOption[] | OptionList
  placeholder?: string
}

/** A labelled select for react-hook-form (same markup as the shell's Field). */
export function Select({ label, registration, error, options, placeholder, required, ...rest }: Props) {
  const id = useId()
  const errorId = `${id}-error`
  // A shared list goes in before react-hook-form's ref sets the saved value.
  const ref = options instanceof OptionList
    ? (el: HTMLSelectElement | null) => {
        if (el) options.fill(el, placeholder)
        registration.ref(el)
      }
    : registration.ref
  return (
    <div className={`field ${error ? 'field--invalid' : ''}`.trim()}>
      <label htmlFor={id} className="field__label">
        {label}
        {required && <span aria-hidden="true" className="field__required"> *</span>}
      </label>
      <select id={id} className="field__input" aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined} aria-required={required || undefined} {...rest} {...registration} ref={ref}>
        {!(options instanceof OptionList) && placeholder !== undefined && <option value="">{placeholder}</option>}
        {!(options instanceof OptionList) && options.map((o) => (
          <option key={o.value} value={o.value}>{o.label}</option>
        ))}
      </select>
      {error?.message && <p id={errorId} className="field__error" role="alert">{error.message}</p>}
    </div>
  )
}
