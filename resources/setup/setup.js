// The first-start page (a local file in a sandboxed window). It talks to main/ only
// through window.pierSetup (preload/setup.ts). No framework: one small form.
/* global document, window */
'use strict';

const api = window.pierSetup;
const $ = (id) => document.getElementById(id);

function showErrors(errors) {
  for (const p of document.querySelectorAll('.error')) p.textContent = '';
  for (const e of errors) {
    const p = document.querySelector(`.error[data-for="${e.field}"]`) || document.querySelector('.error[data-for=""]');
    p.textContent = p.textContent ? `${p.textContent} ${e.message}` : e.message;
  }
}

function choosing() {
  return document.querySelector('input[name=mode]:checked').value === 'choose';
}

async function init() {
  const d = await api.defaults();
  $('login').value = d.login;
  $('folder').value = d.receivedFolder;
  $('firewall').hidden = !d.firewallNote;
  for (const r of document.querySelectorAll('input[name=mode]')) r.addEventListener('change', () => ($('choose').hidden = !choosing()));
  $('pick').addEventListener('click', async () => {
    const folder = await api.pickFolder();
    if (folder) $('folder').value = folder;
  });
  $('form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    let password = null;
    if (choosing()) {
      password = $('password').value;
      if (password !== $('password2').value) return showErrors([{ field: 'password', message: 'The two passwords differ.' }]);
    }
    $('submit').disabled = true;
    showErrors([]);
    try {
      const r = await api.complete({ login: $('login').value.trim(), password, receivedFolder: $('folder').value.trim() });
      if (!r.success) return showErrors(r.errors);
      $('form').hidden = true;
      $('done').hidden = false;
      $('done-login').textContent = r.login;
      if (r.generatedPassword) {
        $('generated').hidden = false;
        $('password-shown').textContent = r.generatedPassword;
      }
    } catch (e) {
      showErrors([{ field: '', message: String(e && e.message ? e.message : e) }]);
    } finally {
      $('submit').disabled = false;
    }
  });
  $('finish').addEventListener('click', () => api.finish());
}

init();
