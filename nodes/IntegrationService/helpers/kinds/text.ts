import { lossyNumberAt, lossyProblem } from '../../../shared/jsonNumbers';
import { hasControlCharacter } from '../../../shared/service';
import type { ValueCheck } from '../validation';
import { inputError } from '../validation';
import type { Kind } from './kind';
import { editor, isUnsetValue } from './kind';

/** Text, sent as written; a write-only value is masked in the editor too. */
export const text: Kind = {
	property: (spec) => editor(spec, 'string', '', spec.writeOnly ? { password: true } : undefined),
	read: ({ ctx, itemIndex, label }, spec, raw) =>
		spec.required
			? requireText(ctx, itemIndex, label, raw)
			: optionalText(ctx, itemIndex, label, raw),
	words: () => 'text',
};

/** Text as given, a finite number or a boolean as its text; never "[object Object]", "null" or "NaN". */
export const textOf: ValueCheck<string> = (ctx, itemIndex, field, value) => {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && lossyNumberAt(value) !== undefined)
		throw inputError(ctx, itemIndex, field, lossyProblem(''));
	if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
		return String(value);
	if (typeof value === 'number')
		throw inputError(ctx, itemIndex, field, `must be text, got ${String(value)}`);
	if (value === null) throw inputError(ctx, itemIndex, field, 'must be text, not null');
	if (typeof value === 'object')
		throw inputError(ctx, itemIndex, field, 'must be text, not an object or a list');
	throw inputError(ctx, itemIndex, field, `must be text, got a ${typeof value}`);
};

export const requireText: ValueCheck<string> = (ctx, itemIndex, field, value) => {
	if (isUnsetValue(value)) throw inputError(ctx, itemIndex, field, 'is required but empty');
	return textOf(ctx, itemIndex, field, value);
};

/** Empty or null is "not set" (left out of the body). */
export const optionalText: ValueCheck<string | undefined> = (ctx, itemIndex, field, value) => {
	if (value === undefined || value === null || value === '') return undefined;
	return textOf(ctx, itemIndex, field, value);
};

/** An ID that becomes one path segment: required and header-safe (the transport refuses "." and ".."). */
export const requireId: ValueCheck<string> = (ctx, itemIndex, field, value) => {
	// A number past 2^53 (or with a fraction) has lost digits, or was never an ID.
	if (typeof value === 'number' && !Number.isSafeInteger(value)) {
		const problem = `must be text or a whole number up to 9007199254740991, got ${String(value)}: a larger number has lost digits; give the ID as text, as the service wrote it`;
		throw inputError(ctx, itemIndex, field, problem);
	}
	const id = requireText(ctx, itemIndex, field, value).trim();
	if (hasControlCharacter(id))
		throw inputError(ctx, itemIndex, field, 'contains a line break or another control character');
	return id;
};
