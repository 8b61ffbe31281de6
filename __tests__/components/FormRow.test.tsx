import { render, screen } from '@testing-library/react'
import FormRow from '@/components/FormRow'
import { typeInto } from '../pages/page-harness'

const row = (props: { hideLabel?: boolean; onChange?: jest.Mock }) =>
  render(
    <FormRow
      label="真实姓名"
      maxLength={20}
      placeholder="请输入真实姓名"
      value=""
      onChange={props.onChange ?? jest.fn()}
      hideLabel={props.hideLabel}
    >
      <span>清除</span>
    </FormRow>,
  )

describe('FormRow', () => {
  it('shows its label, the input it names and what sits beside it, and reports what is typed', () => {
    const onChange = jest.fn()
    const { container } = row({ onChange })
    expect(screen.getByText('真实姓名')).toBeTruthy()
    expect(screen.getByPlaceholderText('请输入真实姓名')).toBeTruthy()
    expect(screen.getByText('清除')).toBeTruthy()
    typeInto(container, '真实姓名', '张三')
    expect(onChange).toHaveBeenCalledWith('张三')
  })

  it('with hideLabel, the label is only read out: the placeholder says what goes in', () => {
    const { container } = row({ hideLabel: true })
    expect(screen.queryByText('真实姓名')).toBeNull()
    expect(container.querySelector('taro-input-core[aria-label="真实姓名"]')).toBeTruthy()
  })
})
