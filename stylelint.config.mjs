/**
 * `stylelint "src/**\/*.scss"` (part of `npm run lint`): colours come from src/styles/_tokens.scss only.
 * Elsewhere a stylesheet writes `$color-…` or `rgba($color-…, 0.5)`, never a hex, a named colour or a
 * colour function of raw numbers. Only these rules: formatting is Prettier's.
 */
const rawColour = [
  '/\\b(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\\(\\s*[\\d.]/', // rgba(0, 0, 0, 0.5)
  '/#[\\da-fA-F]{3,8}\\b/', // a hex that color-no-hex does not see, e.g. inside #{…}
]

export default {
  customSyntax: 'postcss-scss',
  rules: {
    'color-no-hex': true,
    'color-named': 'never',
    'declaration-property-value-disallowed-list': { '/.*/': rawColour },
  },
  overrides: [
    {
      files: ['src/styles/_tokens.scss'],
      rules: {
        'color-no-hex': null,
        'color-named': null,
        'declaration-property-value-disallowed-list': null,
      },
    },
  ],
}
