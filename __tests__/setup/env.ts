// Runs before each test file's modules load: the H5 platform is what jest exercises.
process.env.TARO_ENV = 'h5'
process.env.TARO_PLATFORM = 'web'
