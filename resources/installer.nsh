; Included by electron-builder's NSIS installer (electron-builder.yml, nsis.include).
;
; Windows Firewall: Pier's server (the same executable, in its utility process) accepts
; connections from phones and computers on private networks (home, office), never on
; public ones. netsh needs administrator rights: an install for the current user only,
; without them, leaves the decision to Windows' own prompt at the first start.

!macro customInstall
  ; an update or a repair would otherwise add a second rule
  nsExec::ExecToLog 'netsh advfirewall firewall delete rule name="Pier" program="$INSTDIR\${APP_EXECUTABLE_FILENAME}"'
  Pop $0
  nsExec::ExecToLog 'netsh advfirewall firewall add rule name="Pier" dir=in action=allow program="$INSTDIR\${APP_EXECUTABLE_FILENAME}" enable=yes profile=private'
  Pop $0
!macroend

!macro customUnInstall
  nsExec::ExecToLog 'netsh advfirewall firewall delete rule name="Pier" program="$INSTDIR\${APP_EXECUTABLE_FILENAME}"'
  Pop $0
!macroend
