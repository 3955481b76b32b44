import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../../shared/catalogue';
import { labelOf } from '../../../shared/catalogue';
import type { Reading } from '../validation';
import { inputError, readEntries, refuseUnknownKeys, withoutValue } from '../validation';
import { toBoolean } from './boolean';
import { parseJsonList } from './json';
import type { Fields, Kind } from './kind';
import { compoundValue, editor, isUnsetValue } from './kind';
import { objectListProperty, partsInWords, readEntry, textPart } from './objectList';
import { optionalText } from './text';

/** The contact lists of a person or a borrower (spec 2.1): emails, phones and addresses. */

/** A list whose entries have a reader of their own; inside another list's entry, one JSON list. */
function entryListKind(
	what: string,
	parts: (fields: Fields) => INodeProperties[],
	entries: (at: Reading, raw: unknown, fields: Fields) => IDataObject[],
	words: (fields: Fields) => string,
): Kind {
	const read = (at: Reading, spec: FieldSpec, raw: unknown, fields: Fields) =>
		compoundValue(at, spec, raw, what, (given) => entries(at, given, fields));
	return {
		property: (spec, fields) =>
			objectListProperty({ ...spec, placeholder: `Add ${labelOf(what)}` }, parts(fields)),
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

const TEXT_PARTS = ['value', 'type', 'status'] as const;
const CONTACT_PARTS = [...TEXT_PARTS, 'isPrimary'];
const WORDS = 'value (text), type (text), status (text), isPrimary (true or false)';

// Not a toggle: n8n fills a toggle's default (false) into every entry, which an update would send and
// so demote the primary value. "Not Set" sends nothing; an old workflow's true is Yes.
const IS_PRIMARY: INodeProperties = {
	displayName: 'Is Primary',
	name: 'isPrimary',
	type: 'options',
	options: [
		{ name: 'No', value: false, description: 'Sent as false' },
		{
			name: 'Not Set',
			value: '',
			description: 'Not sent: the service keeps (or chooses) the primary value',
		},
		{ name: 'Yes', value: true, description: 'Sent as true' },
	],
	default: '',
	description: 'Whether this is the primary value; Not Set sends nothing',
};

function contactValue(place: Reading, entry: IDataObject): IDataObject {
	const { ctx, itemIndex, label } = place;
	const { value, isPrimary } = entry;
	refuseUnknownKeys(place, entry, CONTACT_PARTS);
	if (isUnsetValue(value)) throw inputError(ctx, itemIndex, label, 'has no value');
	const contact: IDataObject = {};
	for (const name of TEXT_PARTS) {
		const text = withoutValue(place, entry[name], () =>
			optionalText(ctx, itemIndex, `${label} › ${labelOf(name)}`, entry[name]),
		);
		if (text !== undefined) contact[name] = name === 'value' ? text.trim() : text;
	}
	if (isPrimary !== undefined && isPrimary !== null && isPrimary !== '') {
		// Systems with numeric booleans answer 1 and 0: their emails and phones come back as input.
		const flag = isPrimary === 1 ? true : isPrimary === 0 ? false : isPrimary;
		contact.isPrimary = withoutValue(place, isPrimary, () =>
			toBoolean(ctx, itemIndex, `${label} › Is Primary`, flag),
		);
	}
	return contact;
}

/** Emails or phones; `value` is the entry's first part. */
function contactKind(what: string, value: FieldSpec, typeExample: string): Kind {
	const freeText = (aspect: string) =>
		`Free-text ${aspect} of the value, as used by the connected system`;
	const parts = [
		value,
		textPart('Type', 'type', typeExample, freeText('kind')),
		textPart('Status', 'status', 'valid', freeText('status')),
	];
	const wording = { list: 'entries', entry: 'must be an object with a value' };
	return entryListKind(
		what,
		(fields) => [...parts.map(fields.part), IS_PRIMARY],
		(at, raw) => readEntries(at, raw, wording, contactValue),
		() => WORDS,
	);
}

export const emails = contactKind(
	'email',
	textPart(
		'Email Address',
		'value',
		'name@email.com',
		'The email address, sent without blanks around it',
	),
	'work',
);
export const phones = contactKind(
	'phone',
	textPart(
		'Phone Number',
		'value',
		'+1 555 0100',
		'The phone number, sent as entered without blanks around it',
	),
	'mobile',
);

/** Postal addresses: every part optional text, an address with no part is an error. */
const ADDRESS_PARTS: readonly FieldSpec[] = [
	textPart('Type', 'type', 'home', 'Kind of address, e.g. home or mailing'),
	textPart('Street', 'street', '1 Main St'),
	textPart('City', 'city'),
	textPart('State', 'state', 'CA'),
	textPart('Postal Code', 'code', '94105'),
	textPart('Country', 'country', 'US'),
];

export const addresses = entryListKind(
	'address',
	(fields) => ADDRESS_PARTS.map(fields.part),
	(at, raw, fields) =>
		readEntries(at, raw, { list: 'addresses', entry: 'must be an object' }, (place, entry) =>
			readEntry(place, entry, ADDRESS_PARTS, fields),
		),
	(fields) => partsInWords(ADDRESS_PARTS, fields),
);
