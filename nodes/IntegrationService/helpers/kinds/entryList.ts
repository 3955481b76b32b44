import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../../shared/catalogue';
import type { Reading } from '../validation';
import { parseJsonList } from './json';
import type { Fields, Kind } from './kind';
import { compoundValue, editor } from './kind';

/** A list whose entries have a reader of their own: one JSON list inside another list's entry. */
export function entryListKind(
	what: string,
	property: (spec: FieldSpec, fields: Fields) => INodeProperties,
	entries: (at: Reading, raw: unknown, fields: Fields) => IDataObject[],
	words: (fields: Fields) => string,
): Kind {
	const read = (at: Reading, spec: FieldSpec, raw: unknown, fields: Fields) =>
		compoundValue(at, spec, raw, what, (given) => entries(at, given, fields));
	return {
		property,
		part: (spec) => editor(spec, 'json', '[]'),
		read,
		// Inside an entry the list is one JSON value: parsed, then read as the form's.
		readPart: (at, spec, raw, fields) =>
			read(
				at,
				spec,
				typeof raw === 'string' && raw !== ''
					? parseJsonList(at.ctx, at.itemIndex, at.label, raw)
					: raw,
				fields,
			),
		words: (_spec, fields) => `list of objects with ${words(fields)}`,
		list: true,
	};
}
