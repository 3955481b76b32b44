// bench/ is linted with the tools' rules, not n8n's node rules: see eslint.tools.config.mjs.
export { default } from '../eslint.tools.config.mjs';
