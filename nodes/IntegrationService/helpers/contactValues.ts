import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { inputError, optionalText, requireText, toBoolean, toEntries } from './validation';

/**
 * Contact values (spec 2.1): `value`, `type`, `status`, `isPrimary`. Used by person emails and phones
 * and by borrower emails and phones.
 */
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
					{
						displayName: isEmail ? 'Email Address' : 'Phone Number',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: isEmail ? 'name@email.com' : '+1 555 0100',
						description: isEmail ? 'The email address' : 'The phone number, sent as entered',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'string',
						default: '',
						placeholder: isEmail ? 'work' : 'mobile',
						description: 'Free-text kind of the value, as used by the connected system',
					},
					{
						displayName: 'Status',
						name: 'status',
						type: 'string',
						default: '',
						placeholder: 'valid',
						description: 'Free-text status of the value, as used by the connected system',
					},
					{
						displayName: 'Is Primary',
						name: 'isPrimary',
						type: 'boolean',
						default: false,
						description: 'Whether this is the primary value',
					},
				],
			},
		],
		...overrides,
	};
}

/** Turns the fixedCollection (or a list from an expression) into the wire shape, leaving out blank parts. */
export function toContactValues(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	raw: unknown,
): IDataObject[] {
	const entries = toEntries(ctx, itemIndex, field, raw, { list: 'entries', entry: 'must be an object with a value' });
	return entries.map((entry, position) => {
		const { value, type, status, isPrimary } = entry;
		const entryLabel = `${field} › entry ${position + 1}`;
		if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
			throw inputError(ctx, itemIndex, entryLabel, 'has no value');
		}
		const contact: IDataObject = { value: requireText(ctx, itemIndex, `${entryLabel} › Value`, value).trim() };
		const typeText = optionalText(ctx, itemIndex, `${entryLabel} › Type`, type);
		if (typeText !== undefined) contact.type = typeText;
		const statusText = optionalText(ctx, itemIndex, `${entryLabel} › Status`, status);
		if (statusText !== undefined) contact.status = statusText;
		if (isPrimary !== undefined && isPrimary !== null && isPrimary !== '') {
			contact.isPrimary = toBoolean(ctx, itemIndex, `${entryLabel} › Is Primary`, isPrimary);
		}
		return contact;
	});
}
