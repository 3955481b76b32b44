import type { ValueCheck } from '../validation';
import { inputError, shown as shownValue } from '../validation';
import type { Kind } from './kind';
import { editor, isUnsetValue } from './kind';

/** A toggle; `initial` is the value it shows when added (off unless given). */
export const boolean: Kind = {
	property: (spec) => editor(spec, 'boolean', spec.initial ?? false),
	read: ({ ctx, itemIndex, label }, _spec, raw) =>
		isUnsetValue(raw) ? undefined : toBoolean(ctx, itemIndex, label, raw),
	words: () => 'true or false',
};

export const toBoolean: ValueCheck<boolean> = (ctx, itemIndex, field, value) => {
	if (typeof value === 'boolean') return value;
	if (value === 'true') return true;
	if (value === 'false') return false;
	throw inputError(ctx, itemIndex, field, `must be true or false, got ${shownValue(value)}`);
};
