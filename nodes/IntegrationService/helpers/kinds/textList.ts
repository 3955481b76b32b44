import { describeValue } from '../../../shared/service';
import type { ValueCheck } from '../validation';
import { inputError } from '../validation';
import type { Kind } from './kind';
import { editor, isUnset } from './kind';
import { textOf } from './text';

/** A list of text (`stringList`): one value per entry; a required one needs at least one. */
export const textList: Kind = {
	property: (spec) => editor(spec, 'string', [], { multipleValues: true }),
	read({ ctx, itemIndex, label }, spec, raw) {
		const list = isUnset(raw) ? [] : toStringList(ctx, itemIndex, label, raw);
		if (list.length) return list;
		if (spec.required) throw inputError(ctx, itemIndex, label, 'add at least one value');
		return undefined;
	},
	words: () => 'list of text',
};

/** A list's entries are sent as given; comma text's pieces are trimmed ("vip, navy"); blank ones dropped. */
const toStringList: ValueCheck<string[]> = (ctx, itemIndex, field, value) => {
	const list = typeof value === 'string' ? value.split(',').map((piece) => piece.trim()) : value;
	if (!Array.isArray(list)) {
		const problem = `must be a list of text values, got ${describeValue(value)}`;
		throw inputError(ctx, itemIndex, field, problem);
	}
	return list
		.map((entry, position) => textOf(ctx, itemIndex, `${field} › entry ${position + 1}`, entry))
		.filter((entry) => entry.trim() !== '');
};
