import { describeValue } from '../../../shared/service';
import { inputError } from '../validation';
import type { Kind } from './kind';
import { editor } from './kind';
import { textOf } from './text';

/** A list of text: entries sent as given, comma text split and trimmed ("vip, navy"), blanks dropped; required: one at least. */
export const textList: Kind = {
	property: (spec) => editor(spec, 'string', [], { multipleValues: true }),
	read({ ctx, itemIndex, label }, spec, raw) {
		const given = typeof raw === 'string' ? raw.split(',').map((piece) => piece.trim()) : raw;
		if (!Array.isArray(given) && given !== undefined && given !== null) {
			const problem = `must be a list of text values, got ${describeValue(raw)}`;
			throw inputError(ctx, itemIndex, label, problem);
		}
		const list = (given ?? [])
			.map((entry, position) => textOf(ctx, itemIndex, `${label} › entry ${position + 1}`, entry))
			.filter((entry) => entry.trim() !== '');
		if (list.length) return list;
		if (spec.required) throw inputError(ctx, itemIndex, label, 'add at least one value');
		return undefined;
	},
	words: () => 'list of text',
};
