import { describe, expect, it } from 'vitest'
import { useEffect } from 'react'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { TranslationProvider } from '@/i18n/translation'
import { useForm } from 'react-hook-form'
import { createI18n } from '@/i18n/i18n'
import { SHELL_NAMESPACE, loadCatalogue } from '@/i18n/catalogues'
import type { Lang } from '@/i18n/languages'
import { DateField } from './DateField'

type Form = { day: string }
const handle: { form?: ReturnType<typeof useForm<Form>> } = {}

function Harness() {
  const f = useForm<Form>({ defaultValues: { day: '2026-03-10' } })
  useEffect(() => {
    handle.form = f
  })
  return <DateField label="Day" registration={f.register('day')} />
}

async function renderIn(lang: Lang) {
  await loadCatalogue(lang, SHELL_NAMESPACE)
  render(
    <TranslationProvider i18n={createI18n(lang)}>
      <Harness />
    </TranslationProvider>,
  )
  return screen.getByLabelText('Day') as HTMLInputElement
}

function EmptyHarness() {
  const f = useForm<Form>({ defaultValues: { day: '' } })
  return <DateField label="Day" registration={f.register('day')} />
}

describe('DateField', () => {
  it.each(['en', 'sg', 'jp', 'kr', 'cn', 'tw', 'hk', 'th'] as Lang[])('empty (%s): a format hint, not a real-looking date', async (lang) => {
    await loadCatalogue(lang, SHELL_NAMESPACE)
    render(
      <TranslationProvider i18n={createI18n(lang)}>
        <EmptyHarness />
      </TranslationProvider>,
    )
    const input = screen.getByLabelText('Day') as HTMLInputElement
    expect(input.value).toBe('')
    expect(input.placeholder).not.toBe('')
    // No digit (Latin, full-width or Thai): nothing a member could read as a date already entered.
    expect(input.placeholder).not.toMatch(/[0-9０-９๐-๙]/)
  })

  it('shows the default, setValue and reset the language\'s way, and keeps ISO in the form', async () => {
    const input = await renderIn('jp')
    expect(input.value).toBe('2026年3月10日')
    act(() => handle.form!.setValue('day', '2026-12-01'))
    expect(input.value).toBe('2026年12月1日')
    act(() => handle.form!.reset({ day: '2012-01-02' }))
    expect(input.value).toBe('2012年1月2日')
    fireEvent.change(input, { target: { value: '２０２６／４／５' } })
    expect(handle.form!.getValues('day')).toBe('2026-04-05')
    fireEvent.blur(input)
    expect(input.value).toBe('2026年4月5日')
  })

  it('keeps what is half typed as the form value, so the validation says it is no date', async () => {
    const input = await renderIn('en')
    fireEvent.change(input, { target: { value: '4/5' } })
    expect(handle.form!.getValues('day')).toBe('4/5')
    fireEvent.blur(input)
    expect(input.value).toBe('4/5')
  })

  it('takes a date chosen in the browser\'s calendar behind the button', async () => {
    const input = await renderIn('th')
    expect(screen.getByRole('button', { name: 'เลือกจากปฏิทิน' })).toBeTruthy()
    const picker = document.querySelector('.date-field__picker') as HTMLInputElement
    // A text input until the calendar is opened (jsdom has no showPicker: the field falls back to focus and click).
    expect(picker.type).toBe('text')
    fireEvent.click(screen.getByRole('button', { name: 'เลือกจากปฏิทิน' }))
    expect(picker.type).toBe('date')
    fireEvent.change(picker, { target: { value: '2026-10-01' } })
    expect(input.value).toBe('1 ต.ค. 2569')
    expect(handle.form!.getValues('day')).toBe('2026-10-01')
  })
})
