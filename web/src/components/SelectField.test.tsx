import { describe, expect, it } from 'vitest'
import { useEffect, useState } from 'react'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { useForm } from 'react-hook-form'
import { SelectField, type SelectOption } from './SelectField'

type Form = { home: string; passport: string }
const en: SelectOption[] = [{ value: 'JP', label: 'Japan' }, { value: 'KR', label: 'South Korea' }, { value: 'TH', label: 'Thailand' }]
const jp: SelectOption[] = [{ value: 'JP', label: '日本' }, { value: 'KR', label: '韓国' }, { value: 'TH', label: 'タイ' }]
const handle: { submitted?: Form; setCountries?: (c: SelectOption[]) => void; setPlaceholder?: (p: string) => void } = {}
const submit = (v: Form) => {
  handle.submitted = v
}

// Two selects sharing one country list, as on the account page.
function Harness() {
  const [countries, setCountries] = useState(en)
  const [placeholder, setPlaceholder] = useState('None')
  useEffect(() => {
    handle.setCountries = setCountries
    handle.setPlaceholder = setPlaceholder
  }, [])
  const { register, handleSubmit } = useForm<Form>({ defaultValues: { home: 'KR', passport: '' } })
  return (
    <form onSubmit={handleSubmit(submit)}>
      <SelectField label="Home" required registration={register('home')} options={countries} placeholder="Choose" />
      <SelectField label="Passport" registration={register('passport')} options={countries} placeholder={placeholder} />
      <button type="submit">Save</button>
    </form>
  )
}

const options = (label: string) => [...(screen.getByLabelText(label) as HTMLSelectElement).options].map((o) => `${o.value}:${o.text}`)
const value = (label: string) => (screen.getByLabelText(label) as HTMLSelectElement).value

describe('SelectField with a shared list', () => {
  it('takes a new list or placeholder (another language) and keeps what is selected', async () => {
    render(<Harness />)
    expect(options('Passport')).toEqual([':None', 'JP:Japan', 'KR:South Korea', 'TH:Thailand'])
    expect(value('Home *')).toBe('KR')
    fireEvent.change(screen.getByLabelText('Passport'), { target: { value: 'JP' } })
    act(() => handle.setCountries!(jp))
    expect(options('Home *')).toEqual([':Choose', 'JP:日本', 'KR:韓国', 'TH:タイ'])
    expect(value('Home *')).toBe('KR')
    expect(value('Passport')).toBe('JP')
    act(() => handle.setPlaceholder!('なし'))
    expect(options('Passport')).toEqual([':なし', 'JP:日本', 'KR:韓国', 'TH:タイ'])
    expect(value('Passport')).toBe('JP')
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })))
    expect(handle.submitted).toEqual({ home: 'KR', passport: 'JP' })
  })
})

type Search = { airport: string }
const searched: { value?: Search } = {}
const search = (v: Search) => {
  searched.value = v
}
function Plain({ hint, error }: { hint?: string; error?: string }) {
  const { register, handleSubmit } = useForm<Search>({ defaultValues: { airport: 'KIX' } })
  const airports: SelectOption[] = [{ value: 'KIX', label: 'Kansai (KIX)' }, { value: 'NRT', label: 'Narita (NRT)' }]
  return (
    <form onSubmit={handleSubmit(search)}>
      <SelectField label="Airport" hint={hint} placeholder="Any airport" options={airports} registration={register('airport')}
        error={error ? { type: 'validate', message: error } : undefined} />
      <button type="submit">Search</button>
    </form>
  )
}

describe('SelectField with a short list', () => {
  it('ties the label to the select, puts the placeholder first and selects the form value', () => {
    render(<Plain />)
    const select = screen.getByRole('combobox', { name: 'Airport' }) as HTMLSelectElement
    expect(options('Airport')).toEqual([':Any airport', 'KIX:Kansai (KIX)', 'NRT:Narita (NRT)'])
    expect(select.value).toBe('KIX')
    expect(select.getAttribute('aria-invalid')).toBeNull()
    expect(select.getAttribute('aria-describedby')).toBeNull()
    expect(select.getAttribute('aria-required')).toBeNull()
  })

  it('links the hint and the error with aria-describedby, marks it invalid and announces the error', () => {
    render(<Plain hint="Where the flight leaves from" error="Choose an airport" />)
    const select = screen.getByRole('combobox', { name: 'Airport' })
    expect(select.getAttribute('aria-invalid')).toBe('true')
    const described = (select.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent)
    expect(described).toEqual(['Where the flight leaves from', 'Choose an airport'])
    expect(screen.getByRole('alert').textContent).toBe('Choose an airport')
    expect(select.closest('.field')?.classList.contains('field--invalid')).toBe(true)
  })

  it('submits the chosen value through the registration', async () => {
    render(<Plain />)
    fireEvent.change(screen.getByLabelText('Airport'), { target: { value: 'NRT' } })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Search' })))
    expect(searched.value).toEqual({ airport: 'NRT' })
  })

  it('marks a required select with aria-required and the visible mark', () => {
    function Required() {
      const { register } = useForm<Search>()
      return <SelectField label="Airport" required placeholder="Choose" options={[{ value: 'KIX', label: 'Kansai' }]} registration={register('airport')} />
    }
    render(<Required />)
    const select = screen.getByLabelText('Airport *')
    expect(select.getAttribute('aria-required')).toBe('true')
    expect((select as HTMLSelectElement).value).toBe('')
  })
})
