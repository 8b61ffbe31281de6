import { fireEvent, render, screen } from '@testing-library/react'
import PackageGrid from '@/components/PackageGrid'

const beans = [
  { id: 1, beans: 100, price: 1000 },
  { id: 2, beans: 520, price: 5000 },
]
const grid = (chosenId: number | null, onChoose = jest.fn()) =>
  render(
    <PackageGrid label="云豆套餐" packages={beans} chosenId={chosenId} onChoose={onChoose}>
      {(pack) => `${pack.beans}云豆`}
    </PackageGrid>,
  )

describe('PackageGrid', () => {
  it('shows each package as a tile of a named radio group, the chosen one checked', () => {
    grid(2)
    expect(screen.getByRole('radiogroup', { name: '云豆套餐' })).toBeTruthy()
    expect(screen.getByRole('radio', { name: '100云豆' }).getAttribute('aria-checked')).toBe(
      'false',
    )
    expect(screen.getByRole('radio', { name: '520云豆' }).getAttribute('aria-checked')).toBe('true')
  })

  it('reports a tapped package', () => {
    const onChoose = jest.fn()
    grid(null, onChoose)
    fireEvent.click(screen.getByText('520云豆'))
    expect(onChoose).toHaveBeenCalledWith(2)
  })

  it('shows an empty group while the packages are loading', () => {
    render(
      <PackageGrid label="云空间套餐" packages={undefined} chosenId={null} onChoose={jest.fn()}>
        {() => '套餐'}
      </PackageGrid>,
    )
    expect(screen.getByRole('radiogroup', { name: '云空间套餐' })).toBeTruthy()
    expect(screen.queryAllByRole('radio')).toHaveLength(0)
  })
})
