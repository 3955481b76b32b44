import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../../shared/catalogue';
import { parseJsonList } from './json';
import type { Kind, Reading } from './kind';
import { compoundValue, jsonListPart } from './kind';

/** A list whose entries have a reader of their own: one JSON list inside another list's entry. */
export function entryListKind(
	what: string,
	words: string,
	form: (overrides: Partial<INodeProperties>) => INodeProperties,
	entries: (at: Reading, raw: unknown) => IDataObject[],
): Kind {
	const read = (at: Reading, spec: FieldSpec, raw: unknown) =>
		compoundValue(at, spec, raw, what, (given) => entries(at, given));
	return {
		property: (spec) =>
			form({ description: spec.description, ...(spec.required ? { required: true } : {}) }),
		part: jsonListPart,
		read,
		// Inside an entry the list is one JSON value: parsed, then read as the form's.
		readPart: (at, spec, raw) =>
			read(
				at,
				spec,
				typeof raw === 'string' && raw !== ''
					? parseJsonList(at.ctx, at.itemIndex, at.label, raw)
					: raw,
			),
		words: () => `list of objects with ${words}`,
		list: true,
	};
}
