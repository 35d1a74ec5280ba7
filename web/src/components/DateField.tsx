import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form'
import { useLang, useTranslation } from '@/i18n/translation'
import { FieldWrapper, useFieldIds } from './Field'
import { dateInputExample, dateInputPattern, dateInputText, parseDateInput } from '@/i18n/dateInput'

export interface DateFieldProps {
  label: ReactNode
  /** What register('name') returned; the form's value is ISO "YYYY-MM-DD" (or the text as typed while it is no date). */
  registration: UseFormRegisterReturn
  error?: FieldError
  hint?: ReactNode
  required?: boolean
  className?: string
  autoComplete?: string
}

/**
 * A date field in the member's language (src/i18n/dateInput.ts): a text
 * input that shows the date as the page writes it ("Nov 22, 2026",
 * "2026年11月22日", "22 พ.ย. 2569") and reads back what is typed in that
 * language, so keyboard entry works whatever the browser's locale; the
 * browser's own calendar opens from the button beside it. A drop-in for
 * <Field type="date">: the form keeps ISO values, and setValue / reset show
 * in the field (the field registers a small object whose value setter
 * updates the text). The date input behind the button becomes one when
 * the calendar is first opened.
 */
export function DateField({ label, registration, error, hint, required, className, autoComplete = 'off' }: DateFieldProps) {
  const { t } = useTranslation()
  const lang = useLang()
  const ids = useFieldIds(hint, error)
  const id = ids.id
  const formatId = `${id}-format`
  const inputRef = useRef<HTMLInputElement>(null)
  const pickerRef = useRef<HTMLInputElement>(null)
  const value = useRef('')
  const langRef = useRef(lang)
  const [text, setText] = useState('')
  const { name, onChange, onBlur, ref } = registration

  // What react-hook-form reads and writes: the form value, never the text.
  const proxy = useMemo(
    () => ({
      name,
      get value() {
        return value.current
      },
      set value(v: string) {
        value.current = v ?? ''
        setText(dateInputText(value.current, langRef.current))
      },
      focus: () => inputRef.current?.focus(),
    }),
    [name],
  )
  useEffect(() => {
    ref(proxy)
  })
  useEffect(() => {
    langRef.current = lang
    if (parseDateInput(value.current, lang)) setText(dateInputText(value.current, lang))
  }, [lang])

  const emit = (v: string, type: 'change' | 'blur') => {
    value.current = v
    const event = { target: { name, value: v }, type }
    return type === 'change' ? onChange(event) : onBlur(event)
  }
  const describedBy = [formatId, ids.describedBy].filter(Boolean).join(' ')
  const openPicker = () => {
    const p = pickerRef.current
    if (!p) return
    // The picker is a plain input until first opened: Chromium's first date
    // inputs of a page cost about 25 ms to create and 30 ms to lay out (its
    // date editor), a tenth of a search form's render on a phone, for a
    // calendar most members never open (docs/speed.md).
    p.type = 'date'
    p.value = /^\d{4}-\d{2}-\d{2}$/.test(value.current) ? value.current : ''
    try {
      p.showPicker()
    } catch {
      p.focus()
      p.click()
    }
  }

  return (
    <FieldWrapper ids={ids} label={label} required={required} error={error} hint={hint} className={className}>
      <div className="date-field">
        <input
          id={id}
          ref={inputRef}
          name={name}
          type="text"
          inputMode="text"
          autoComplete={autoComplete}
          className="field__input"
          placeholder={dateInputPattern(lang)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          aria-required={required || undefined}
          value={text}
          onChange={(e) => {
            setText(e.target.value)
            void emit(parseDateInput(e.target.value, lang) ?? e.target.value.trim(), 'change')
          }}
          onBlur={() => {
            const iso = parseDateInput(text, lang)
            if (iso) setText(dateInputText(iso, lang))
            void emit(value.current, 'blur')
          }}
        />
        <button type="button" className="date-field__button" onClick={openPicker} aria-label={t('dateInput.calendar')} title={t('dateInput.calendar')}>
          <svg aria-hidden="true" focusable="false" width="20" height="20" viewBox="0 0 20 20">
            <path fill="currentColor" d="M6 1h2v2h4V1h2v2h3a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h3V1Zm10 7H4v8h12V8Z" />
          </svg>
        </button>
        <input
          ref={pickerRef}
          className="date-field__picker"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            const iso = e.target.value
            if (!iso) return
            setText(dateInputText(iso, lang))
            void emit(iso, 'change')
            void emit(iso, 'blur')
            inputRef.current?.focus()
          }}
        />
      </div>
      <span id={formatId} className="visually-hidden">
        {t('dateInput.format', { example: dateInputExample(lang) })}
      </span>
    </FieldWrapper>
  )
}
