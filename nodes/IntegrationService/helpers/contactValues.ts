import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { inputError, toBoolean, toEntries } from './validation';

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
		if (value === undefined || value === null || String(value).trim() === '') {
			throw inputError(ctx, itemIndex, `${field} › entry ${position + 1}`, 'has no value');
		}
		const contact: IDataObject = { value: String(value).trim() };
		if (type !== undefined && type !== '') contact.type = String(type);
		if (status !== undefined && status !== '') contact.status = String(status);
		if (isPrimary !== undefined && isPrimary !== '') {
			contact.isPrimary = toBoolean(ctx, itemIndex, `${field} › entry ${position + 1} › Is Primary`, isPrimary);
		}
		return contact;
	});
}
