window.fakeLib = { version: 1 };
