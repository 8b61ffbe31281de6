/**
 * The H5 build's CSS-module class names, as a pure function of the stylesheet's path and the class:
 * `catalogue-module__card___Ab3_x`, the shape of Taro's default `[name]__[local]___[hash:base64:5]`.
 * A function instead of css-loader's pattern so that code rendering a page outside webpack (the
 * server's 创建云机 document, scripts/lib/level-goods-renderer.mjs) names the classes exactly as the
 * build does, without reading them back out of the build.
 */
const crypto = require('node:crypto')
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..')

/** @param {string} local the class as written in the stylesheet @param {string} file its path */
function scopedClassName(local, file) {
  const relative = path.relative(ROOT, path.resolve(file)).split(path.sep).join('/')
  const name = path
    .basename(file)
    .replace(/\.(scss|sass|css|less)$/, '')
    .replace(/\./g, '-')
  const hash = crypto.createHash('sha1').update(`${relative}\0${local}`).digest('base64url')
  return `${name}__${local}___${hash.slice(0, 5)}`
}

module.exports = { scopedClassName }
