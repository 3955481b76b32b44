/**
 * Emails, phones and addresses as a user fills the node's lists (Person › Create, Borrower › Update),
 * and as the service receives them: a blank type or status is left out, an address keeps the parts given.
 */
const PHONES = [{ value: '+1 555 0100', type: 'mobile', status: 'Valid', isPrimary: true }];
const ADDRESSES = [
	{
		type: 'home',
		street: '1 Main St',
		city: 'Arlington',
		state: 'VA',
		code: '22201',
		country: 'US',
	},
	{ type: 'mailing', city: 'New York' },
];

export const CONTACT_PARAMETERS = {
	emails: {
		values: [
			{ value: 'grace@example.test', type: 'work', status: 'Valid', isPrimary: true },
			{ value: 'g.hopper@example.test', type: 'home', status: '', isPrimary: false },
			{ value: 'gh@example.org', type: '', status: '', isPrimary: false },
		],
	},
	phones: { values: PHONES },
	addresses: { values: ADDRESSES },
};

export const CONTACT_BODY = {
	emails: [
		{ value: 'grace@example.test', type: 'work', status: 'Valid', isPrimary: true },
		{ value: 'g.hopper@example.test', type: 'home', isPrimary: false },
		{ value: 'gh@example.org', isPrimary: false },
	],
	phones: PHONES,
	addresses: ADDRESSES,
};
