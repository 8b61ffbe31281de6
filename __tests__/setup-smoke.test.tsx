import { Button, Empty } from '@nutui/nutui-react-taro'
import { fireEvent, render, screen } from '@testing-library/react'
import { Text, View } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { useState } from 'react'

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0)
  return (
    <View role="button" aria-label={label} onClick={() => setCount((n) => n + 1)}>
      <Text>
        {label}: {count}
      </Text>
    </View>
  )
}

describe('test setup', () => {
  it('renders a Taro component and reacts to a tap', () => {
    render(<Counter label="次数" />)
    expect(screen.getByText('次数: 0')).toBeTruthy()
    fireEvent.click(screen.getByLabelText('次数'))
    expect(screen.getByText('次数: 1')).toBeTruthy()
  })

  it('exposes the Taro H5 API and the lifecycle hooks', () => {
    expect(process.env.TARO_ENV).toBe('h5')
    expect(typeof Taro.request).toBe('function')
    expect(typeof Taro.getStorageSync).toBe('function')
    expect(typeof Taro.useDidShow).toBe('function')
    Taro.setStorageSync('smoke', { a: 1 })
    expect(Taro.getStorageSync('smoke')).toEqual({ a: 1 })
  })

  it('renders NutUI components (per-component import, styles stubbed)', () => {
    render(
      <>
        <Button>确定</Button>
        <Empty description="暂无相关数据" />
      </>,
    )
    expect(screen.getByText('确定')).toBeTruthy()
    expect(screen.getByText('暂无相关数据')).toBeTruthy()
  })
})
