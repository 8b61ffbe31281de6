/**
 * What an operator may send to users' message centers (the console's 消息 page and POST /messages): a
 * title that fits the message center's list row and a body that fits its detail, as text.
 */
export const MESSAGE_TITLE_MAX = 50
export const MESSAGE_CONTENT_MAX = 1000
