; Included by electron-builder's NSIS installer (electron-builder.yml, nsis.include).
;
; Windows Firewall: Pier's server (the same executable, in its utility process) accepts
; connections from phones and computers on private networks (home, office), never on
; public ones. netsh needs administrator rights: an install for the current user only,
; without them, leaves the decision to Windows' own prompt at the first start. netsh is
; named by its full path: a bare name would be looked up in the installer's own folder first.

!macro customInstall
  ; an update or a repair would otherwise add a second rule
  nsExec::ExecToLog '"$SYSDIR\netsh.exe" advfirewall firewall delete rule name="Pier" program="$INSTDIR\${APP_EXECUTABLE_FILENAME}"'
  Pop $0
  nsExec::ExecToLog '"$SYSDIR\netsh.exe" advfirewall firewall add rule name="Pier" dir=in action=allow program="$INSTDIR\${APP_EXECUTABLE_FILENAME}" enable=yes profile=private protocol=TCP'
  Pop $0
!macroend

!macro customUnInstall
  nsExec::ExecToLog '"$SYSDIR\netsh.exe" advfirewall firewall delete rule name="Pier" program="$INSTDIR\${APP_EXECUTABLE_FILENAME}"'
  Pop $0
!macroend
