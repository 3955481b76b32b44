import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { entriesReader, inputError, refuseUnknownKeys, withoutValue } from '../validation';
import { toBoolean } from './boolean';
import { entryListKind } from './entryList';
import type { Kind } from './kind';
import { optionalText, requireText } from './text';

const text = (displayName: string, name: string, placeholder: string, description: string) => ({
	displayName,
	name,
	type: 'string' as const,
	default: '',
	placeholder,
	description,
});

const CONTACT_PARTS = ['value', 'type', 'status', 'isPrimary'] as const;

/** Contact values (spec 2.1) of a person or a borrower. */
export function contactValuesProperty(
	name: 'emails' | 'phones',
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	const isEmail = name === 'emails';
	return {
		displayName: isEmail ? 'Emails' : 'Phones',
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: isEmail ? 'Add Email' : 'Add Phone',
		default: {},
		description: isEmail
			? 'Email addresses, each with an optional type (e.g. work), status and primary flag'
			: 'Phone numbers, each with an optional type (e.g. mobile), status and primary flag',
		options: [
			{
				displayName: isEmail ? 'Email' : 'Phone',
				name: 'values',
				values: [
					text(
						isEmail ? 'Email Address' : 'Phone Number',
						'value',
						isEmail ? 'name@email.com' : '+1 555 0100',
						isEmail
							? 'The email address, sent without blanks around it'
							: 'The phone number, sent as entered without blanks around it',
					),
					text(
						'Type',
						'type',
						isEmail ? 'work' : 'mobile',
						'Free-text kind of the value, as used by the connected system',
					),
					text(
						'Status',
						'status',
						'valid',
						'Free-text status of the value, as used by the connected system',
					),
					// Not a toggle: n8n fills a toggle's default (false) into every entry, which an update would
					// send and so demote the primary value. "Not Set" sends nothing; an old workflow's true is Yes.
					{
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
					},
				],
			},
		],
		...overrides,
	};
}

const toContactValues = entriesReader(
	{ list: 'entries', entry: 'must be an object with a value' },
	(ctx, itemIndex, entry, { label: entryLabel }) => {
		const { value, type, status, isPrimary } = entry;
		refuseUnknownKeys(ctx, itemIndex, entryLabel, entry, CONTACT_PARTS);
		if (value === undefined || value === null || (typeof value === 'string' && !value.trim()))
			throw inputError(ctx, itemIndex, entryLabel, 'has no value');
		const part = <T>(raw: unknown, read: () => T) => withoutValue(ctx, itemIndex, raw, read);
		const contact: IDataObject = {
			value: part(value, () => requireText(ctx, itemIndex, `${entryLabel} › Value`, value).trim()),
		};
		const typeText = part(type, () => optionalText(ctx, itemIndex, `${entryLabel} › Type`, type));
		if (typeText !== undefined) contact.type = typeText;
		const statusText = part(status, () =>
			optionalText(ctx, itemIndex, `${entryLabel} › Status`, status),
		);
		if (statusText !== undefined) contact.status = statusText;
		if (isPrimary !== undefined && isPrimary !== null && isPrimary !== '') {
			// Systems with numeric booleans answer 1 and 0: their emails and phones come back as input.
			const flag = isPrimary === 1 ? true : isPrimary === 0 ? false : isPrimary;
			contact.isPrimary = part(isPrimary, () =>
				toBoolean(ctx, itemIndex, `${entryLabel} › Is Primary`, flag),
			);
		}
		return contact;
	},
);

function contactKind(name: 'emails' | 'phones'): Kind {
	const words = CONTACT_PARTS.map(
		(part) => `${part} (${part === 'isPrimary' ? 'true or false' : 'text'})`,
	).join(', ');
	return entryListKind(
		name === 'emails' ? 'email' : 'phone',
		words,
		(overrides) => contactValuesProperty(name, overrides),
		(at, raw) => toContactValues(at.ctx, at.itemIndex, at.label, raw),
	);
}

export const [emails, phones] = [contactKind('emails'), contactKind('phones')];
