/** Devices, groups, supplier instances and auth hand-off tokens (docs/cloud-phones.md). */
export {}
