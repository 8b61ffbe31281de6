// Load @tarojs/taro before anything else: @tarojs/router and taro-h5 import each other.
import '@tarojs/taro'
