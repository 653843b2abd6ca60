; Inno Setup 6 script for the GPU Planner Windows installer.
;
; Build (after `pyinstaller --noconfirm packaging/gpuplanner.spec`, from the repository root):
;     iscc /DAppVersion=0.1.0 packaging\windows\gpuplanner.iss
; Output: dist\installers\GPUPlanner-<version>-windows-x64-setup.exe
; Saved as UTF-8 with a byte-order mark so ISCC reads the Chinese strings as UTF-8, not the ANSI code page.
;
; What it does
; - Per-user install without administrator rights (PrivilegesRequired=lowest -> %LOCALAPPDATA%\Programs);
;   the user may still choose "install for all users" in a dialog (then it asks for elevation).
; - Start menu entry (+ optional desktop icon), uninstaller (Apps & features), launch after install.
; - .gpuplan file association (per-user HKCU\Software\Classes, or HKLM for all users) with its own
;   document icon; ChangesAssociations=yes so Explorer refreshes icons without a log-off.
; - Clean upgrade: the AppId below never changes, so a new version installs into the same folder; the
;   PyInstaller `_internal` folder of the old version is deleted first ([InstallDelete]) so no stale
;   libraries survive (the Hydrus installer's approach).
; - English and Simplified Chinese wizard. ChineseSimplified.isl ships with newer Inno Setup releases;
;   for older ones CI copies it next to this script (packaging\windows\languages\), see
;   .github/workflows/build.yml.

#define AppName "GPU Planner"
#define AppExe "gpuplanner.exe"
#define Bundle "..\..\dist\gpuplanner"
#ifndef AppVersion
  ; Default: the version resource the spec writes into gpuplanner.exe.
  #define AppVersion GetStringFileInfo(AddBackslash(SourcePath) + Bundle + "\" + AppExe, "ProductVersion")
#endif

[Setup]
; Never change this GUID: it identifies the installed app across versions (upgrade in place).
AppId={{6B1F2C7E-3A54-4D8B-9E21-7C0F5A9D4B36}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppName}
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
ChangesAssociations=yes
CloseApplications=yes
UsePreviousAppDir=yes
UsePreviousTasks=yes
SetupIconFile=..\icons\gpuplanner.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
OutputDir=..\..\dist\installers
OutputBaseFilename=GPUPlanner-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ShowLanguageDialog=auto

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
#ifexist AddBackslash(CompilerPath) + "Languages\ChineseSimplified.isl"
Name: "chinesesimplified"; MessagesFile: "compiler:Languages\ChineseSimplified.isl"
#else
  #ifexist AddBackslash(SourcePath) + "languages\ChineseSimplified.isl"
Name: "chinesesimplified"; MessagesFile: "languages\ChineseSimplified.isl"
  #else
    #error ChineseSimplified.isl not found: neither in Inno Setup's Languages folder nor in packaging\windows\languages\
  #endif
#endif

[CustomMessages]
english.PlanFileType=GPU Planner plan
chinesesimplified.PlanFileType=GPU Planner 方案文件
english.AssociateTask=Open .gpuplan plan files with {#AppName}
chinesesimplified.AssociateTask=用 {#AppName} 打开 .gpuplan 方案文件
english.OtherTasks=File types:
chinesesimplified.OtherTasks=文件类型：

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "associate"; Description: "{cm:AssociateTask}"; GroupDescription: "{cm:OtherTasks}"

[InstallDelete]
; Upgrade over an older version: remove its bundled libraries before copying the new ones.
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "{#Bundle}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
Source: "..\icons\gpuplan-document.ico"; DestDir: "{app}"; Flags: ignoreversion

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"; WorkingDir: "{userdocs}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; WorkingDir: "{userdocs}"; Tasks: desktopicon

[Registry]
; HKA = HKCU for a per-user install, HKLM for an all-users install.
Root: HKA; Subkey: "Software\Classes\.gpuplan"; ValueType: string; ValueName: ""; ValueData: "GPUPlanner.Plan"; Flags: uninsdeletevalue; Tasks: associate
Root: HKA; Subkey: "Software\Classes\.gpuplan"; ValueType: string; ValueName: "Content Type"; ValueData: "application/vnd.gpuplanner.plan+json"; Flags: uninsdeletevalue; Tasks: associate
Root: HKA; Subkey: "Software\Classes\.gpuplan\OpenWithProgids"; ValueType: string; ValueName: "GPUPlanner.Plan"; ValueData: ""; Flags: uninsdeletevalue; Tasks: associate
Root: HKA; Subkey: "Software\Classes\GPUPlanner.Plan"; ValueType: string; ValueName: ""; ValueData: "{cm:PlanFileType}"; Flags: uninsdeletekey; Tasks: associate
Root: HKA; Subkey: "Software\Classes\GPUPlanner.Plan\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\gpuplan-document.ico"; Tasks: associate
Root: HKA; Subkey: "Software\Classes\GPUPlanner.Plan\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""; Tasks: associate
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\SupportedTypes"; ValueType: string; ValueName: ".gpuplan"; ValueData: ""; Flags: uninsdeletekey

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
Type: filesandordirs; Name: "{app}\_internal"
