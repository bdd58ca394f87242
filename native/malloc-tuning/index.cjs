// The built addon; `tune` returns false where glibc is not the allocator.
module.exports = require('./build/Release/malloc_tuning.node');
