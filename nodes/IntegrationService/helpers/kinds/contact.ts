import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../../shared/catalogue';
import type { EntryPlace } from '../validation';
import { inputError, readEntries, refuseUnknownKeys, withoutValue } from '../validation';
import { toBoolean } from './boolean';
import { entryListKind } from './entryList';
import type { Fields, Kind } from './kind';
import { textPart } from './objectList';
import { optionalText, requireText } from './text';

const CONTACT_PARTS = ['value', 'type', 'status', 'isPrimary'] as const;

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

/** Contact values (spec 2.1) of a person or a borrower. */
function contactProperty(spec: FieldSpec, fields: Fields): INodeProperties {
	const isEmail = spec.name === 'emails';
	const parts = [
		textPart(
			isEmail ? 'Email Address' : 'Phone Number',
			'value',
			isEmail ? 'name@email.com' : '+1 555 0100',
			isEmail
				? 'The email address, sent without blanks around it'
				: 'The phone number, sent as entered without blanks around it',
		),
		textPart(
			'Type',
			'type',
			isEmail ? 'work' : 'mobile',
			'Free-text kind of the value, as used by the connected system',
		),
		textPart(
			'Status',
			'status',
			'valid',
			'Free-text status of the value, as used by the connected system',
		),
	];
	return {
		displayName: spec.label,
		name: spec.name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: isEmail ? 'Add Email' : 'Add Phone',
		default: {},
		description: spec.description,
		options: [
			{
				displayName: isEmail ? 'Email' : 'Phone',
				name: 'values',
				values: [...parts.map(fields.part), IS_PRIMARY],
			},
		],
		...(spec.required ? { required: true } : {}),
	};
}

function contactValue(place: EntryPlace, entry: IDataObject): IDataObject {
	const { ctx, itemIndex, label } = place;
	const { value, type, status, isPrimary } = entry;
	refuseUnknownKeys(place, entry, CONTACT_PARTS);
	if (value === undefined || value === null || (typeof value === 'string' && !value.trim()))
		throw inputError(ctx, itemIndex, label, 'has no value');
	const part = <T>(raw: unknown, read: () => T) => withoutValue(place, raw, read);
	const contact: IDataObject = {
		value: part(value, () => requireText(ctx, itemIndex, `${label} › Value`, value).trim()),
	};
	const typeText = part(type, () => optionalText(ctx, itemIndex, `${label} › Type`, type));
	if (typeText !== undefined) contact.type = typeText;
	const statusText = part(status, () => optionalText(ctx, itemIndex, `${label} › Status`, status));
	if (statusText !== undefined) contact.status = statusText;
	if (isPrimary !== undefined && isPrimary !== null && isPrimary !== '') {
		// Systems with numeric booleans answer 1 and 0: their emails and phones come back as input.
		const flag = isPrimary === 1 ? true : isPrimary === 0 ? false : isPrimary;
		contact.isPrimary = part(isPrimary, () =>
			toBoolean(ctx, itemIndex, `${label} › Is Primary`, flag),
		);
	}
	return contact;
}

function contactKind(what: string): Kind {
	const words = CONTACT_PARTS.map(
		(part) => `${part} (${part === 'isPrimary' ? 'true or false' : 'text'})`,
	).join(', ');
	return entryListKind(
		what,
		contactProperty,
		(at, raw) =>
			readEntries(
				at,
				raw,
				{ list: 'entries', entry: 'must be an object with a value' },
				contactValue,
			),
		() => words,
	);
}

export const [emails, phones] = [contactKind('email'), contactKind('phone')];
