import { describe, expect, it } from 'vitest'
import { useEffect, useMemo, useState } from 'react'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { useForm } from 'react-hook-form'
import { OptionList, Select, type SelectOption } from './Select'

type Form = { home: string; passport: string }
const en: SelectOption[] = [{ value: 'JP', label: 'Japan' }, { value: 'KR', label: 'South Korea' }, { value: 'TH', label: 'Thailand' }]
const jp: SelectOption[] = [{ value: 'JP', label: '日本' }, { value: 'KR', label: '韓国' }, { value: 'TH', label: 'タイ' }]
const handle: { submitted?: Form; setCountries?: (c: SelectOption[]) => void; setPlaceholder?: (p: string) => void } = {}
const submit = (v: Form) => {
  handle.submitted = v
}

function Harness() {
  const [countries, setCountries] = useState(en)
  const [placeholder, setPlaceholder] = useState('None')
  useEffect(() => {
    handle.setCountries = setCountries
    handle.setPlaceholder = setPlaceholder
  }, [])
  const list = useMemo(() => new OptionList(countries), [countries])
  const { register, handleSubmit } = useForm<Form>({ defaultValues: { home: 'KR', passport: '' } })
  return (
    <form onSubmit={handleSubmit(submit)}>
      <Select label="Home" required registration={register('home')} options={list} placeholder="Choose" />
      <Select label="Passport" registration={register('passport')} options={list} placeholder={placeholder} />
      <button type="submit">Save</button>
    </form>
  )
}

const options = (label: string) => [...(screen.getByLabelText(label) as HTMLSelectElement).options].map((o) => `${o.value}:${o.text}`)

describe('Select with a shared OptionList', () => {
  it('shows the placeholder and the list in each select, the saved value selected, and submits the choice', async () => {
    render(<Harness />)
    expect(options('Home *')).toEqual([':Choose', 'JP:Japan', 'KR:South Korea', 'TH:Thailand'])
    expect(options('Passport')).toEqual([':None', 'JP:Japan', 'KR:South Korea', 'TH:Thailand'])
    expect((screen.getByLabelText('Home *') as HTMLSelectElement).value).toBe('KR')
    expect((screen.getByLabelText('Passport') as HTMLSelectElement).value).toBe('')
    fireEvent.change(screen.getByLabelText('Passport'), { target: { value: 'TH' } })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })))
    expect(handle.submitted).toEqual({ home: 'KR', passport: 'TH' })
  })

  it('takes a new list or placeholder (another language) and keeps what is selected', async () => {
    render(<Harness />)
    fireEvent.change(screen.getByLabelText('Passport'), { target: { value: 'JP' } })
    act(() => handle.setCountries!(jp))
    expect(options('Home *')).toEqual([':Choose', 'JP:日本', 'KR:韓国', 'TH:タイ'])
    expect((screen.getByLabelText('Home *') as HTMLSelectElement).value).toBe('KR')
    expect((screen.getByLabelText('Passport') as HTMLSelectElement).value).toBe('JP')
    act(() => handle.setPlaceholder!('なし'))
    expect(options('Passport')).toEqual([':なし', 'JP:日本', 'KR:韓国', 'TH:タイ'])
    expect((screen.getByLabelText('Passport') as HTMLSelectElement).value).toBe('JP')
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })))
    expect(handle.submitted).toEqual({ home: 'KR', passport: 'JP' })
  })
})
