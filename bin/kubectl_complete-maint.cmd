@echo off
rem Shell completion for kubectl maint on Windows: kubectl runs this on TAB after "kubectl maint".
"%~dp0kubectl-maint.exe" __complete %*
