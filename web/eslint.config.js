import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// One-way imports: app/ composes features; a feature uses components/, lib/
// and its own files, and another feature only through that feature's public
// index (src/features/<name>/index.ts); components/ and lib/ use neither.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

const throughIndex = 'Import another feature through its public index: @/features/<name>, not its files.'
const leavesFeature = 'This path leaves the feature: import through @/components, @/lib or @/features/<name>.'

/** The imports a file of feature may not make; `topLevel` for files directly in its folder, where ../ already leaves it. */
function featureRules(feature, topLevel) {
  const patterns = [
    { regex: `^@/features/(?!${feature}/)[^/]+/`, message: throughIndex },
    { regex: topLevel ? '^\\.\\./' : '^\\.\\./\\.\\./', message: leavesFeature },
  ]
  return { 'no-restricted-imports': ['error', { patterns }] }
}

export default tseslint.config(
  { ignores: ['dist', 'node_modules'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.strict, reactHooks.configs.flat.recommended],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
  },
  ...features.flatMap((feature) => [
    { files: [`src/features/${feature}/**/*.{ts,tsx}`], rules: featureRules(feature, false) },
    { files: [`src/features/${feature}/*.{ts,tsx}`], rules: featureRules(feature, true) },
  ]),
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(@/|(\\.\\./)+)(features|app)(/|$)', message: 'components/ and lib/ are shared by every feature: they import no feature and not the app.' }] },
      ],
    },
  },
)
