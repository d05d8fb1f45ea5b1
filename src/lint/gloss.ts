/** Glosses text written in German, French, Spanish, Portuguese, Italian, Chinese or Japanese into English words, so S8's English patterns can read an attack written in another language. */

// The gloss is a view for a word matcher, not a translation: known words and fixed phrases become
// the English forms S8's patterns know, everything else stays where it is. Word order stays the
// source's, except for a few Chinese and Japanese clause markers ("在…之前", "…前に") whose English
// must come first for "before calling other tools" to read as one phrase.
//
// Table entries are written `key=english`:
// - `~key`: the key is also an English word ("die", "an", "file"); it is glossed in a sentence
//   already known to be in that language but never counts as evidence that it is.
// - `key!`: an addressed form (du, debes, ください, an imperative such as "envíalas"): the sentence
//   speaks to the model, so its ambiguous verbs read as imperatives.
// - `english` may be `base|third|gerund`: an ambiguous verb ("envía" is both "send!" and "sends")
//   reads as `third` unless the sentence is addressed; `gerund` serves "Das Senden" and "在调用…之前".
// - `*key=singular|plural` (CJK nouns): the plural follows "all" ("所有 API 密钥" = "all API keys").
// - `<key` and `>key` (Chinese): a clause opener ("在") and closer ("之前") that frame a verb.
// - `>key` (Japanese): a clause-final marker ("前に") moved, with its verb, to the clause start.
// - `{a,b}` in a key expands to one entry per choice.
// An empty English drops the source word (particles, "ください").

const DE: readonly string[] = [
  // Directives, and the addressed forms that make a sentence an instruction to the model
  "du musst!=you must",
  "musst du!=you must",
  "sie müssen!=you must",
  "müssen sie!=you must",
  "ihr müsst!=you must",
  "du sollst!=you must",
  "musst!=must",
  "müssen=must",
  "muss=must",
  "sollst!=must",
  "soll=must",
  "immer=always",
  "stets=always",
  "jedes mal=every time",
  "zuerst=first",
  "zunächst=first",
  "als erstes=first",
  "vorher=first",
  "bevor=before",
  "vor der {verwendung,nutzung,benutzung}=before using",
  "vor {dem,jedem} aufruf=before calling",
  "bei der {verwendung,nutzung,benutzung}=when using",
  "beim aufruf=when calling",
  "wenn=when",
  "nach der {verwendung,nutzung,benutzung}=after using",
  "nach dem aufruf=after calling",
  "{stelle,stell,stellen sie} sicher dass!=make sure to",
  "achte darauf!=make sure to",
  "sorge dafür dass!=make sure to",
  "es ist {zwingend erforderlich,pflicht,verpflichtend}=it is mandatory to",
  "zwingend=mandatory",
  "verpflichtend=mandatory",
  "erforderlich=required",
  "unbedingt=must",
  "bitte!=please",
  "~du!=you",
  "dich!=you",
  "~dir!=you",
  "{dein,deine,deinen,deinem}=your",
  // Precedence
  "ignoriere!=ignore",
  "ignorieren=ignore",
  "ignoriert=ignores",
  "missachte!=ignore",
  "vergiss!=forget",
  "{vorherigen,vorherige,bisherigen,früheren,obigen}=previous",
  "{anweisungen,instruktionen,vorgaben}=instructions",
  "anweisung=instruction",
  "regeln=rules",
  "{hat,haben} {vorrang,priorität} vor=has priority over",
  "vorrang=priority",
  "beschreibung=description",
  "{unabhängig davon,egal,ganz gleich} was=regardless of what",
  "{die anfrage,die bitte,der wunsch} des {benutzers,nutzers,anwenders}=the user's request",
  "anfrage=request",
  "{verlangt,gefragt,angefordert,gewünscht} hat=asked",
  "möchte=wants",
  // Secrecy
  "{sag,sage,erzähl,erzähle,verrate} dem {benutzer,nutzer,anwender} nichts!=do not tell the user",
  "sagen sie dem {benutzer,nutzer,anwender} nichts!=do not tell the user",
  "{sag,sage,erzähl,erzähle} es dem {benutzer,nutzer,anwender} nicht!=do not tell the user",
  "{informiere,benachrichtige} den {benutzer,nutzer,anwender} nicht!=do not tell the user",
  "ohne den {benutzer,nutzer,anwender} zu {informieren,benachrichtigen,warnen}=without telling the user",
  "ohne {es,etwas} dem {benutzer,nutzer,anwender} zu sagen=without telling the user",
  "ohne wissen des {benutzers,nutzers,anwenders}=without telling the user",
  "der {benutzer,nutzer,anwender} darf {nichts davon,das nicht,es nicht} wissen=do not tell the user",
  "{heimlich,insgeheim,unbemerkt}=secretly",
  "im geheimen=secretly",
  "{stillschweigend,lautlos}=silently",
  "~still=silently",
  "erwähne {das,dies,es} nicht!=do not mention this",
  "erwähne nichts!=do not mention this",
  "erwähne!=mention",
  "~sag!=tell",
  "~sage!=tell",
  "{erzähl,erzähle}!=tell",
  "verrate!=reveal",
  "informiere!=inform",
  "ohne {zu fragen,nachfrage,rückfrage}=without asking",
  "nichts=nothing",
  "nicht=not",
  "{niemals,nie}=never",
  "{kein,keine,keinen}=no",
  "davon=about it",
  // Reading and moving data
  "~lies!=read",
  "lese!=read",
  "lesen=read||reading",
  "liest=reads",
  "öffne!=open",
  "öffnen=open||opening",
  "öffnet=opens",
  "{kopiere,kopier}!=copy",
  "kopieren=copy||copying",
  "kopiert=copies",
  "sammle!=collect",
  "sammeln=collect||collecting",
  "sammelt=collects",
  "{sende,schicke,schick,versende,übermittle,übertrage}!=send",
  "{sende,schicke,schick} es!=send it",
  "{sende,schicke,schick} sie!=send them",
  "{senden,schicken,versenden,übermitteln,übertragen}=send||sending",
  "{sendet,schickt,versendet,übermittelt,überträgt}=sends",
  "hochladen=upload||uploading",
  "{leite,leit} weiter!=forward",
  "weiterleiten=forward||forwarding",
  "leitet weiter=forwards",
  "poste!=post",
  "posten=post||posting",
  "füge ein!=paste",
  "einfügen=paste||pasting",
  "füge!=add",
  "hinzufügen=add||adding",
  "{hänge,~häng}!=attach",
  "anhängen=attach||attaching",
  "{übergib,übergebe}!=pass",
  "übergeben=pass||passing",
  "übergibt=passes",
  "setze!=put",
  "setzen=put||putting",
  "setzt=puts",
  "{schreibe,schreib}!=write",
  "schreiben=write||writing",
  "schreibt=writes",
  "speichere!=store",
  "speichern=store||storing",
  "speichert=stores",
  "{einschließlich,inklusive}=including",
  "gibt zurück=returns",
  "liefert=returns",
  "gibt=gives",
  "listet=lists",
  "sucht=searches",
  "erstellt=creates",
  "nachricht=message",
  "nachrichten=messages",
  "{verzeichnis,ordner}=folder",
  "pfad=path",
  "{angegebene,angegebenen,angegebenes}=given",
  "{ihren,ihre,seinen,seine}=its",
  "ist=is",
  "sind=are",
  "wird=is",
  // Destruction and change
  "{lösche,lösch}!=delete",
  "löschen=delete||deleting",
  "löscht=deletes",
  "entferne!=remove",
  "entfernen=remove||removing",
  "entfernt=removes",
  "{überschreibe,überschreib}!=overwrite",
  "überschreiben=overwrite||overwriting",
  "überschreibt=overwrites",
  "leere!=empty",
  "leeren=empty||emptying",
  "leert=empties",
  "{ändere,änder}!=change",
  "ändern=change||changing",
  "ändert=changes",
  "modifiziere!=modify",
  "modifizieren=modify||modifying",
  "modifiziert=modifies",
  "ersetze!=replace",
  "ersetzen=replace||replacing",
  "ersetzt=replaces",
  "überweise!=transfer",
  "überweisen=transfer||transferring",
  "überweist=transfers",
  "{verwende,benutze,nutze}!=use",
  "{verwenden,benutzen,nutzen}=use||using",
  "{verwendet,benutzt,nutzt}=uses",
  "{rufe,ruf}!=call",
  "aufrufen=call||calling",
  "ruft=calls",
  "auf=on",
  // Nouns, pronouns and the small words between them
  "{benutzer,nutzer,anwender,benutzers,nutzers,anwenders,benutzerin,nutzerin}=user",
  "datei=file",
  "dateien=files",
  "{inhalt,inhalte}=contents",
  "dateiinhalt=file contents",
  "werkzeug=tool",
  "{werkzeuge,werkzeugen}=tools",
  "adresse=address",
  "{alle,sämtliche}=all",
  "alles=everything",
  "{jede,jeden,jedes,jeder,jedem}=every",
  "{andere,anderen,anderer,anderes}=other",
  "{diese,dieser,dieses,diesen,diesem}=this",
  "~dies=this",
  "~es=it",
  "sie=them",
  "{ihn,ihm}=it",
  "und=and",
  "oder=or",
  "von=of",
  "aus=from",
  "{~der,das,dem}=the",
  "{~die,~den}=the",
  "~des=of the",
  "{ein,eine,einen,einem,einer}=a",
  "~an=to",
  "zu=to",
  "nach=after",
  "~in=in",
  "~im=in the",
  "{im,in den} parameter=in the parameter",
  "als parameter=as the parameter",
  "~als=as",
  "~mit=with",
  "ohne=without",
  "für=for",
  // Secrets
  "{privaten,privater,private} {schlüssel,schlüssels}=the private key",
  "ssh {schlüssel,schlüssels}=the SSH key",
  "{schlüssel,schluessel}=key",
  "api schlüssel=API key",
  "{alle,sämtliche} api schlüssel=all API keys",
  "alle schlüssel=all keys",
  "{passwort,kennwort}=password",
  "{passwörter,kennwörter}=passwords",
  "{zugangsdaten,anmeldedaten}=credentials",
  "umgebungsvariablen=environment variables",
  "umgebungsvariable=environment variable",
  "~token=token",
  "geheimnis=secret",
  "geheimnisse=secrets",
  "{geheim,geheime,geheimen}=secret",
  "{gesprächsverlauf,chatverlauf,unterhaltungsverlauf,konversationsverlauf}=conversation history",
  "verlauf=history",
  "{systemprompt,systemanweisung}=the system prompt",
  // Running something, said as an order or a description
  "führe!=run",
  "führen sie!=run",
  "ausführen=run",
  "führt=runs",
];

const FR: readonly string[] = [
  // Directives
  "vous devez!=you must",
  "tu dois!=you must",
  "il faut=you must",
  "{devez,dois}!=must",
  "{doit,doivent}=must",
  "toujours=always",
  "systématiquement=always",
  "chaque fois=every time",
  "{d'abord,tout d'abord,en premier,au préalable,premièrement}=first",
  "avant {d'utiliser,d'employer}=before using",
  "avant {d'appeler,tout appel}=before calling",
  "avant de=before",
  "~avant=before",
  "lors de l'utilisation=when using",
  "{lorsque vous utilisez,quand vous utilisez}!=when using",
  "quand tu utilises!=when using",
  "en utilisant=when using",
  "{lorsque,quand}=when",
  "après avoir utilisé=after using",
  "après=after",
  "{assure-toi de,assurez-vous de,veille {à,a},veillez {à,a},n'oublie pas de,n'oubliez pas de}!=make sure to",
  "il est obligatoire de=it is mandatory to",
  "{obligatoire,requis,requise,nécessaire}=required",
  "obligatoirement=must",
  "{veuillez,s'il te plaît,s'il vous plaît}!=please",
  "{tu,toi,vous}!=you",
  "{~ton,~ta,tes,votre,vos}=your",
  // Precedence
  "~ignore=ignore|ignores",
  "ignorez!=ignore",
  "ignorer=ignore",
  "oublie=forget|forgets",
  "oubliez!=forget",
  "ignore toutes les {instructions,consignes,directives} {précédentes,antérieures}!=ignore all previous instructions",
  "toutes les {instructions,consignes,directives} {précédentes,antérieures}=all previous instructions",
  "{précédentes,précédents,antérieures}=previous",
  "{~instructions,consignes,~directives}=instructions",
  "règles=rules",
  "{a,ont} priorité sur=has priority over",
  "prime sur=has priority over",
  "priorité=priority",
  "la demande de l'utilisateur=the user's request",
  "demande=request",
  "quoi que l'utilisateur {ait demandé,demande}=regardless of what the user asked",
  "{peu importe ce que,indépendamment de ce que} l'utilisateur {a demandé,demande}=regardless of what the user asked",
  "quelle que soit la demande de l'utilisateur=regardless of what the user asked",
  "indépendamment de=regardless of",
  "a demandé=asked",
  // Secrecy
  "ne le {dis,dites} pas {à,a} l'utilisateur!=do not tell the user",
  "ne {dis,dites} rien {à,a} l'utilisateur!=do not tell the user",
  "n'en {parle,parlez} pas {à,a} l'utilisateur!=do not tell the user",
  "ne {préviens,prévenez,informe,informez,avertis,avertissez} pas l'utilisateur!=do not tell the user",
  "ne le {mentionne,mentionnez} pas!=do not mention this",
  "n'en {parle,parlez} pas!=do not mention this",
  "ne {mentionne,mentionnez} pas!=do not mention",
  "sans {prévenir,informer,avertir} l'utilisateur=without telling the user",
  "sans {le dire,en parler,rien dire} {à,a} l'utilisateur=without telling the user",
  "{à,a} l'insu de l'utilisateur=without telling the user",
  "{en secret,secrètement,discrètement}=secretly",
  "{en silence,silencieusement}=silently",
  "sans {demander,confirmation}=without asking",
  "~ne=not",
  "~n'=not",
  "~pas=",
  "jamais=never",
  "rien=nothing",
  "~dis!=tell",
  "dites!=tell",
  "mentionne=mention|mentions",
  "mentionnez!=mention",
  // Reading and moving data
  "lis!=read",
  "lisez!=read",
  "lire=read",
  "~lit=reads",
  "ouvre=open|opens",
  "ouvrez!=open",
  "ouvrir=open",
  "copie=copy|copies",
  "copiez!=copy",
  "~copier=copy",
  "{collecte,récupère,rassemble}=collect|collects",
  "{collectez,récupérez,rassemblez}!=collect",
  "{collecter,récupérer,rassembler}=collect",
  "envoie=send|sends",
  "{envoyez,transmets,transmettez}!=send",
  "{envoyer,transmettre}=send",
  "transmet=sends",
  "téléverse=upload|uploads",
  "téléversez!=upload",
  "téléverser=upload",
  "transfère=forward|forwards",
  "transférez!=forward",
  "transférer=forward",
  "{publie,poste}=post|posts",
  "publiez!=post",
  "publier=post",
  "{inclus,incluez}!=include",
  "inclure=include",
  "inclut=includes",
  "~passe=pass|passes",
  "passez!=pass",
  "passer=pass",
  "{~mets,mettez}!=put",
  "mettre=put",
  "~met=puts",
  "{~joins,joignez}!=attach",
  "joindre=attach",
  "colle=paste|pastes",
  "collez!=paste",
  "coller=paste",
  "ajoute=add|adds",
  "ajoutez!=add",
  "ajouter=add",
  "{écris,écrivez}!=write",
  "écrire=write",
  "écrit=writes",
  "{renvoie,retourne}=returns",
  "{liste,listes}=list",
  "cherche=searches",
  "crée=creates",
  "{répertoire,dossier}=folder",
  "chemin=path",
  "{donné,donnée,indiqué,indiquée}=given",
  "~est=is",
  "sont=are",
  "{~son,~sa,~ses}=its",
  // Destruction and change
  "supprime=delete|deletes",
  "supprimez!=delete",
  "supprimer=delete",
  "efface=erase|erases",
  "effacez!=erase",
  "effacer=erase",
  "{~retire,enlève}=remove|removes",
  "{retirez,enlevez}!=remove",
  "{retirer,enlever}=remove",
  "écrase=overwrite|overwrites",
  "écrasez!=overwrite",
  "écraser=overwrite",
  "~vide=empty|empties",
  "videz!=empty",
  "vider=empty",
  "~change=change|changes",
  "changez!=change",
  "changer=change",
  "modifie=modify|modifies",
  "modifiez!=modify",
  "~modifier=modify",
  "remplace=replace|replaces",
  "remplacez!=replace",
  "remplacer=replace",
  "{définis,définissez}!=set",
  "définir=set",
  "vire=transfer|transfers",
  "virez!=transfer",
  "virer=transfer",
  "utilise=use|uses",
  "utilisez!=use",
  "utiliser=use",
  "appelle=call|calls",
  "appelez!=call",
  "appeler=call",
  // Nouns, pronouns and the small words between them
  "{utilisateur,utilisatrice}=user",
  "utilisateurs=users",
  "fichier=file",
  "fichiers=files",
  "contenu=contents",
  "le contenu {de,du,des}=the contents of",
  "outil=tool",
  "outils=tools",
  "{les autres outils,d'autres outils}=other tools",
  "{autre,autres}=other",
  "paramètre=parameter",
  "dans le paramètre=in the parameter",
  "{comme,en tant que} paramètre=as the parameter",
  "adresse=address",
  "serveur=server",
  "serveurs=servers",
  "{tous,toutes,tout,tous les,toutes les}=all",
  "chaque=every",
  "{ceci,cela,~ce,cette,~cet}=this",
  "{~le,~la,~les,~l'}=the",
  "{~un,une}=a",
  "{~de,~d'}=of",
  "{~du,~des}=of the",
  "à=to",
  "~a=to",
  "{~au,~aux}=to the",
  "~vers=to",
  "~et=and",
  "ou=or",
  "avec=with",
  "dans=in",
  "depuis=from",
  "~sans=without",
  "~pour=for",
  "sur=on",
  // Secrets
  "{la,une} clé privée=the private key",
  "clé privée=the private key",
  "clés privées=private keys",
  "{la clé,clé} ssh=the SSH key",
  "clés ssh=SSH keys",
  "clé=key",
  "clés=keys",
  "{clé api,clé d'api}=API key",
  "{clés api,clés d'api}=API keys",
  "toutes les {clés api,clés d'api}=all API keys",
  "mot de passe=password",
  "mots de passe=passwords",
  "{identifiants,informations d'identification}=credentials",
  "variables d'environnement=environment variables",
  "toutes les variables d'environnement=all environment variables",
  "jeton=token",
  "jetons=tokens",
  "~secret=secret",
  "~secrets=secrets",
  "historique {de la conversation,des conversations}=conversation history",
  "historique=history",
  "{prompt système,invite système}=the system prompt",
  // Running something; "replace X by Y"
  "{exécute,exécutez}=run|runs",
  "exécuter=run",
  "par=with",
  "inutile {d'en informer,de le dire à,de prévenir} l'utilisateur=do not tell the user",
];

const ES: readonly string[] = [
  // Directives
  "{debes,tú debes,tienes que,usted debe}!=you must",
  "{debe,deben,hay que}=must",
  "es obligatorio=it is mandatory to",
  "{obligatorio,requerido,necesario}=required",
  "obligatoriamente=must",
  "siempre=always",
  "cada vez=every time",
  "{primero,antes de nada,en primer lugar}=first",
  "antes de {usar,utilizar}=before using",
  "antes de {llamar,invocar}=before calling",
  "antes de=before",
  "antes=before",
  "al {usar,utilizar}=when using",
  "cuando {uses,utilices}!=when using",
  "cuando=when",
  "después de {usar,utilizar}=after using",
  "{después de,después}=after",
  "{asegúrate de,asegúrese de,no olvides}!=make sure to",
  "por favor!=please",
  "{tú,usted}!=you",
  "tus=your",
  // Precedence
  "ignora=ignore|ignores",
  "~ignore!=ignore",
  "ignorar=ignore",
  "olvida=forget|forgets",
  "ignora todas las instrucciones {anteriores,previas}!=ignore all previous instructions",
  "{descripción,descripcion}=description",
  "todas las instrucciones {anteriores,previas}=all previous instructions",
  "{anteriores,previas}=previous",
  "instrucciones=instructions",
  "reglas=rules",
  "tiene prioridad sobre=has priority over",
  "prioridad=priority",
  "la {solicitud,petición} del usuario=the user's request",
  "{solicitud,petición}=request",
  "{sin importar,independientemente de} lo que {pida,pidió,haya pedido} el usuario=regardless of what the user asked",
  "{sin importar,independientemente de} lo que el usuario {pida,pidió,haya pedido}=regardless of what the user asked",
  "independientemente de=regardless of",
  "pidió=asked",
  // Secrecy
  "no se lo {digas,diga,cuentes,cuente} al usuario!=do not tell the user",
  "no le {digas,diga,cuentes,cuente} nada al usuario!=do not tell the user",
  "no {digas,diga} nada al usuario!=do not tell the user",
  "no se lo {menciones,mencione} al usuario!=do not tell the user",
  "no le {menciones,mencione} esto al usuario!=do not tell the user",
  "no {informes,informe,avises,avise,notifiques} al usuario!=do not tell the user",
  "sin {decirle,decírselo,avisar,avisarle,informar,notificar} al usuario=without telling the user",
  "sin que {el usuario lo sepa,lo sepa el usuario}=without telling the user",
  "a espaldas del usuario=without telling the user",
  "{en secreto,secretamente,a escondidas,sigilosamente}=secretly",
  "{en silencio,silenciosamente}=silently",
  "sin {preguntar,confirmación}=without asking",
  "no lo {menciones,mencione}!=do not mention this",
  "no {menciones,mencione}!=do not mention",
  "~no=do not|does not",
  "{nunca,jamás}=never",
  "nada=nothing",
  "{dile,dígale}!=tell",
  "menciona=mention|mentions",
  // Reading and moving data
  "~lee=read|reads",
  "lea!=read",
  "{léelo,léela}!=read it",
  "{léelos,léelas}!=read them",
  "~leer=read",
  "abre=open|opens",
  "abra!=open",
  "abrir=open",
  "copia=copy|copies",
  "copie!=copy",
  "{cópialo,cópiala}!=copy it",
  "{cópialos,cópialas}!=copy them",
  "copiar=copy",
  "{recopila,recoge,reúne}=collect|collects",
  "{recopile,recoja,reúna}!=collect",
  "{recopilar,recoger,reunir}=collect",
  "{envía,manda}=send|sends",
  "{envíe,mande}!=send",
  "{envíalo,envíala,mándalo,mándala}!=send it",
  "{envíalos,envíalas,mándalos,mándalas}!=send them",
  "{enviar,mandar}=send",
  "{enviarlo,enviarla}=send it",
  "{enviarlos,enviarlas}=send them",
  "sube=upload|uploads",
  "suba!=upload",
  "{súbelo,súbela}!=upload it",
  "subir=upload",
  "reenvía=forward|forwards",
  "reenvíe!=forward",
  "{reenvíalo,reenvíala}!=forward it",
  "reenviar=forward",
  "publica=post|posts",
  "publicar=post",
  "incluye=include|includes",
  "incluya!=include",
  "{inclúyelo,inclúyela}!=include it",
  "incluir=include",
  "pasa=pass|passes",
  "pase!=pass",
  "{pásalo,pásala}!=pass it",
  "pasar=pass",
  "{pon,ponga}!=put",
  "{ponlo,ponla}!=put it",
  "poner=put",
  "adjunta=attach|attaches",
  "adjunte!=attach",
  "adjuntar=attach",
  "pega=paste|pastes",
  "pegue!=paste",
  "pegar=paste",
  "{añade,agrega}=add|adds",
  "{añadir,agregar}=add",
  "escribe=write|writes",
  "escribir=write",
  "devuelve=returns",
  "{lista,listas}=list",
  "busca=searches",
  "crea=creates",
  "{correo,correo electrónico}=email",
  "destinatario=recipient",
  "mensaje=message",
  "{directorio,carpeta}=folder",
  "ruta=path",
  "{dado,dada,indicado,indicada}=given",
  "~es=is",
  "~son=are",
  "{~su,sus}=its",
  // Destruction and change
  "{borra,elimina}=delete|deletes",
  "{borre,elimine}!=delete",
  "{bórralo,bórrala,elimínalo,elimínala}!=delete it",
  "{borrar,eliminar}=delete",
  "quita=remove|removes",
  "quitar=remove",
  "sobrescribe=overwrite|overwrites",
  "sobrescriba!=overwrite",
  "sobrescribir=overwrite",
  "vacía=empty|empties",
  "vaciar=empty",
  "cambia=change|changes",
  "cambie!=change",
  "cambiar=change",
  "modifica=modify|modifies",
  "modifique!=modify",
  "modificar=modify",
  "{reemplaza,sustituye}=replace|replaces",
  "{reemplace,sustituya}!=replace",
  "{reemplazar,sustituir}=replace",
  "establece=set|sets",
  "establecer=set",
  "transfiere=transfer|transfers",
  "transfiera!=transfer",
  "transferir=transfer",
  "{~usa,utiliza}=use|uses",
  "{~use,utilice}!=use",
  "{usar,utilizar}=use",
  "{~llama,invoca}=call|calls",
  "{llame,invoque}!=call",
  "{llamar,invocar}=call",
  // Nouns, pronouns and the small words between them
  "usuario=user",
  "usuarios=users",
  "{archivo,fichero}=file",
  "{archivos,ficheros}=files",
  "contenido=contents",
  "el contenido {de,del}=the contents of",
  "herramienta=tool",
  "herramientas=tools",
  "{otras herramientas,las demás herramientas}=other tools",
  "{otra,otras,otro,otros,demás}=other",
  "parámetro=parameter",
  "en el parámetro=in the parameter",
  "como parámetro=as the parameter",
  "argumento=argument",
  "dirección=address",
  "servidor=server",
  "servidores=servers",
  "{~todo,~todos,todas,todos los,todas las}=all",
  "cada=every",
  "{esto,este,esta,eso}=this",
  "ello=it",
  "~lo=it",
  "{~el,~la,~los,las}=the",
  "{~un,una}=a",
  "~de=of",
  "~del=of the",
  "~al=to the",
  "~a=to",
  "hacia=to",
  "desde=from",
  "{~y,~e}=and",
  "~o=or",
  "~con=with",
  "~sin=without",
  "~en=in",
  "para=for",
  // Secrets
  "{la clave privada,clave privada,la llave privada}=the private key",
  "claves privadas=private keys",
  "{la clave ssh,clave ssh}=the SSH key",
  "claves ssh=SSH keys",
  "{clave,llave}=key",
  "{claves,llaves}=keys",
  "{clave api,clave de api}=API key",
  "{claves api,claves de api}=API keys",
  "todas las {claves api,claves de api}=all API keys",
  "contraseña=password",
  "contraseñas=passwords",
  "credenciales=credentials",
  "variables de entorno=environment variables",
  "todas las variables de entorno=all environment variables",
  "secreto=secret",
  "secretos=secrets",
  "historial de {la conversación,conversación,conversaciones}=conversation history",
  "historial=history",
  "{prompt,mensaje} del sistema=the system prompt",
  // Running something
  "{ejecuta,ejecute}=run|runs",
  "ejecutar=run",
  "ejecútalo!=run it",
  "no hace falta {decírselo al,avisar al,informar al} usuario=do not tell the user",
];

const PT: readonly string[] = [
  // Directives
  "{você deve,tu deves,você tem que,você precisa}!=you must",
  "{deve,devem,tem que,precisa}=must",
  "{é,e} obrigatório=it is mandatory to",
  "{obrigatório,necessário}=required",
  "obrigatoriamente=must",
  "sempre=always",
  "toda vez=every time",
  "{primeiro,em primeiro lugar}=first",
  "antes de {usar,utilizar}=before using",
  "antes de chamar=before calling",
  "antes de=before",
  "antes=before",
  "{ao usar,ao utilizar,quando usar}=when using",
  "quando=when",
  "depois de {usar,utilizar}=after using",
  "{depois de,~após}=after",
  "{certifique-se de,garanta que,não esqueça de}!=make sure to",
  "por favor!=please",
  "{você,tu}!=you",
  "{seu,sua,seus,suas}=your",
  // Precedence
  "~ignore!=ignore",
  "ignora=ignore|ignores",
  "ignorar=ignore",
  "esqueça!=forget",
  "ignora todas as instruções anteriores!=ignore all previous instructions",
  "descrição=description",
  "todas as instruções anteriores=all previous instructions",
  "anteriores=previous",
  "instruções=instructions",
  "regras=rules",
  "tem prioridade sobre=has priority over",
  "prioridade=priority",
  "{o pedido,a solicitação} do {usuário,utilizador}=the user's request",
  "{pedido,solicitação}=request",
  "{independentemente do que,não importa o que} o {usuário,utilizador} {pediu,pedir,solicitou}=regardless of what the user asked",
  "independentemente de=regardless of",
  "pediu=asked",
  // Secrecy
  "sem {avisar,informar,notificar,alertar} o {usuário,utilizador}=without telling the user",
  "sem {dizer,contar} {ao,nada ao} {usuário,utilizador}=without telling the user",
  "sem que o {usuário,utilizador} saiba=without telling the user",
  "não {conte,diga,fale} {ao,nada ao} {usuário,utilizador}!=do not tell the user",
  "não {avise,informe} o {usuário,utilizador}!=do not tell the user",
  "não {mencione,conte,diga} isso ao {usuário,utilizador}!=do not tell the user",
  "não mencione isso!=do not mention this",
  "não mencione!=do not mention",
  "{secretamente,em segredo,às escondidas}=secretly",
  "{silenciosamente,em silêncio}=silently",
  "sem {perguntar,confirmação}=without asking",
  "não=do not|does not",
  "nunca=never",
  "nada=nothing",
  "{diga,conte}!=tell",
  "mencione!=mention",
  // Reading and moving data
  "leia!=read",
  "~lê=read|reads",
  "ler=read",
  "abra!=open",
  "abre=open|opens",
  "abrir=open",
  "copie!=copy",
  "copia=copy|copies",
  "copiar=copy",
  "{colete,recolha,reúna}!=collect",
  "{coleta,recolhe,reúne}=collect|collects",
  "{coletar,recolher,reunir}=collect",
  "{envie,mande}!=send",
  "{envia,manda}=send|sends",
  "{enviar,mandar}=send",
  "{faça o upload,faça upload}!=upload",
  "fazer upload=upload",
  "encaminhe!=forward",
  "encaminha=forward|forwards",
  "encaminhar=forward",
  "publique!=post",
  "publica=post|posts",
  "publicar=post",
  "inclua!=include",
  "inclui=include|includes",
  "incluir=include",
  "~passe!=pass",
  "passa=pass|passes",
  "passar=pass",
  "{coloque,ponha}!=put",
  "coloca=put|puts",
  "colocar=put",
  "anexe!=attach",
  "anexa=attach|attaches",
  "anexar=attach",
  "~cole!=paste",
  "colar=paste",
  "adicione!=add",
  "adiciona=add|adds",
  "escreva!=write",
  "escreve=write|writes",
  "{retorna,devolve}=returns",
  "{lista,listas}=list",
  "busca=searches",
  "cria=creates",
  "destinatário=recipient",
  "mensagem=message",
  "{diretório,~pasta}=folder",
  "caminho=path",
  "{dado,dada,indicado,indicada}=given",
  "são=are",
  // Destruction and change
  "{apague,exclua}!=delete",
  "{apaga,exclui}=delete|deletes",
  "{apagar,excluir}=delete",
  "remova!=remove",
  "~remove=remove|removes",
  "remover=remove",
  "sobrescreva!=overwrite",
  "sobrescreve=overwrite|overwrites",
  "sobrescrever=overwrite",
  "esvazie!=empty",
  "esvaziar=empty",
  "{altere,mude}!=change",
  "{altera,muda}=change|changes",
  "{alterar,mudar}=change",
  "modifique!=modify",
  "modifica=modify|modifies",
  "modificar=modify",
  "substitua!=replace",
  "substitui=replace|replaces",
  "substituir=replace",
  "defina!=set",
  "~define=set|sets",
  "definir=set",
  "transfira!=transfer",
  "transfere=transfer|transfers",
  "transferir=transfer",
  "{~use,~utilize}!=use",
  "{~usa,utiliza}=use|uses",
  "{usar,utilizar}=use",
  "{chame,invoque}!=call",
  "chama=call|calls",
  "chamar=call",
  // Nouns, pronouns and the small words between them
  "{usuário,utilizador}=user",
  "{usuários,utilizadores}=users",
  "{arquivo,ficheiro}=file",
  "{arquivos,ficheiros}=files",
  "conteúdo=contents",
  "o conteúdo {de,do,da}=the contents of",
  "ferramenta=tool",
  "ferramentas=tools",
  "outras ferramentas=other tools",
  "{outra,outras,outro,outros}=other",
  "parâmetro=parameter",
  "no parâmetro=in the parameter",
  "como parâmetro=as the parameter",
  "argumento=argument",
  "endereço=address",
  "servidor=server",
  "servidores=servers",
  "{~todos,todas,todos os,todas as}=all",
  "tudo=everything",
  "cada=every",
  "{isso,isto,este,esta,esse,essa}=this",
  "{~o,~a,~os,~as}=the",
  "{~um,uma}=a",
  "{~do,~da,~dos,~das}=of the",
  "~de=of",
  "{~ao,~aos,à,às}=to the",
  "~é=is",
  "para=to",
  "{~no,~na}=in the",
  "~em=in",
  "~e=and",
  "ou=or",
  "~com=with",
  "~sem=without",
  "por=by",
  // Secrets
  "{a chave privada,chave privada}=the private key",
  "chaves privadas=private keys",
  "{a chave ssh,chave ssh}=the SSH key",
  "chave=key",
  "chaves=keys",
  "{chave de api,chave api}=API key",
  "{chaves de api,chaves api}=API keys",
  "todas as {chaves de api,chaves api}=all API keys",
  "senha=password",
  "senhas=passwords",
  "credenciais=credentials",
  "variáveis de ambiente=environment variables",
  "todas as variáveis de ambiente=all environment variables",
  "segredo=secret",
  "segredos=secrets",
  "histórico {da conversa,de conversas}=conversation history",
  "histórico=history",
  "prompt do sistema=the system prompt",
  // Running something
  "{executa,execute}=run|runs",
  "executar=run",
  "não é preciso {avisar,informar} o usuário=do not tell the user",
];

const IT: readonly string[] = [
  // Directives
  "{devi,tu devi,dovete}!=you must",
  "{deve,devono,bisogna}=must",
  "{è,e} obbligatorio=it is mandatory to",
  "{obbligatorio,necessario,richiesto}=required",
  "obbligatoriamente=must",
  "sempre=always",
  "ogni volta=every time",
  "{prima,per prima cosa,innanzitutto}=first",
  "prima di {usare,utilizzare}=before using",
  "prima di chiamare=before calling",
  "prima di=before",
  "quando {usi,utilizzi}!=when using",
  "durante l'uso=when using",
  "quando=when",
  "dopo {aver usato,aver utilizzato}=after using",
  "dopo=after",
  "{assicurati di,si assicuri di,non dimenticare di}!=make sure to",
  "per favore!=please",
  "tu!=you",
  "{tuo,tua,tuoi,~tue}=your",
  // Precedence
  "ignora=ignore|ignores",
  "ignori!=ignore",
  "ignorare=ignore",
  "dimentica=forget|forgets",
  "ignora tutte le istruzioni precedenti!=ignore all previous instructions",
  "descrizione=description",
  "tutte le istruzioni precedenti=all previous instructions",
  "precedenti=previous",
  "istruzioni=instructions",
  "regole=rules",
  "{ha priorità su,ha la precedenza su}=has priority over",
  "{priorità,precedenza}=priority",
  "la richiesta dell'utente=the user's request",
  "richiesta=request",
  "indipendentemente da ciò che l'utente {ha chiesto,chiede}=regardless of what the user asked",
  "qualunque cosa l'utente {abbia chiesto,chieda}=regardless of what the user asked",
  "indipendentemente da=regardless of",
  "ha chiesto=asked",
  // Secrecy
  "senza {dirlo,dire nulla,dire niente} all'utente=without telling the user",
  "senza {avvisare,informare,avvertire} l'utente=without telling the user",
  "senza che l'utente lo sappia=without telling the user",
  "all'insaputa dell'utente=without telling the user",
  "non {dirlo,dire nulla,dire niente,dirgli nulla,dirgli niente} all'utente!=do not tell the user",
  "non {informare,avvisare,avvertire} l'utente!=do not tell the user",
  "non menzionarlo!=do not mention this",
  "non menzionare!=do not mention",
  "{di nascosto,in segreto,segretamente}=secretly",
  "{silenziosamente,in silenzio}=silently",
  "senza {chiedere,conferma}=without asking",
  "~non=do not|does not",
  "mai=never",
  "{niente,nulla}=nothing",
  "dillo!=tell",
  // Reading and moving data
  "{leggi,legga}!=read",
  "leggilo!=read it",
  "leggere=read",
  "legge=reads",
  "{apri,apra}!=open",
  "aprire=open",
  "apre=opens",
  "copia=copy|copies",
  "copi!=copy",
  "copialo!=copy it",
  "copiare=copy",
  "raccogli!=collect",
  "raccoglie=collects",
  "raccogliere=collect",
  "{invia,manda}=send|sends",
  "{invii,spedisci}!=send",
  "{invialo,inviala,mandalo}!=send it",
  "{inviali,inviale,mandali}!=send them",
  "{inviare,mandare}=send",
  "inviarlo=send it",
  "carica=upload|uploads",
  "carichi!=upload",
  "caricare=upload",
  "inoltra=forward|forwards",
  "inoltri!=forward",
  "inoltrare=forward",
  "pubblica=post|posts",
  "pubblicare=post",
  "{includi,includa}!=include",
  "~include=includes",
  "includere=include",
  "passa=pass|passes",
  "passi!=pass",
  "passare=pass",
  "{metti,metta}!=put",
  "mettere=put",
  "mette=puts",
  "allega=attach|attaches",
  "allegare=attach",
  "incolla=paste|pastes",
  "incollare=paste",
  "aggiungi!=add",
  "aggiunge=adds",
  "scrivi!=write",
  "scrive=writes",
  "{restituisce,ritorna}=returns",
  "elenca=lists",
  "cerca=searches",
  "crea=creates",
  "destinatario=recipient",
  "messaggio=message",
  "cartella=folder",
  "percorso=path",
  "{dato,~data,indicato,indicata}=given",
  "sono=are",
  "{suo,sua,suoi,~sue}=its",
  // Destruction and change
  "{cancella,elimina}=delete|deletes",
  "{cancelli,elimini}!=delete",
  "{cancellalo,eliminalo}!=delete it",
  "{cancellare,eliminare}=delete",
  "rimuovi!=remove",
  "rimuove=removes",
  "rimuovere=remove",
  "sovrascrivi!=overwrite",
  "sovrascrive=overwrites",
  "sovrascrivere=overwrite",
  "svuota=empty|empties",
  "svuotare=empty",
  "cambia=change|changes",
  "cambiare=change",
  "modifica=modify|modifies",
  "modificare=modify",
  "sostituisci!=replace",
  "sostituisce=replaces",
  "sostituire=replace",
  "imposta=set|sets",
  "impostare=set",
  "trasferisci!=transfer",
  "trasferisce=transfers",
  "trasferire=transfer",
  "{~usa,utilizza}=use|uses",
  "{usare,utilizzare}=use",
  "{chiama,invoca}=call|calls",
  "{chiamare,invocare}=call",
  // Nouns, pronouns and the small words between them
  "utente=user",
  "utenti=users",
  "~file=file",
  "contenuto=contents",
  "il contenuto {di,del,della}=the contents of",
  "strumento=tool",
  "strumenti=tools",
  "altri strumenti=other tools",
  "{altri,altre,altro,altra}=other",
  "parametro=parameter",
  "nel parametro=in the parameter",
  "come parametro=as the parameter",
  "argomento=argument",
  "indirizzo=address",
  "{tutti,tutte,tutto,tutti i,tutte le}=all",
  "ogni=every",
  "{questo,questa,ciò}=this",
  "esso=it",
  "{il,gli,~l',~lo,~la,~i,~le}=the",
  "{~un,~uno,una,un'}=a",
  "~di=of",
  "{~del,della,dello,dei,delle,degli,dell'}=of the",
  "{~al,alla,allo,~ai,alle,agli,all'}=to the",
  "{~a,~ad}=to",
  "~da=from",
  "{dal,dalla}=from the",
  "{nel,nella}=in the",
  "~in=in",
  "~con=with",
  "senza=without",
  "~per=for",
  "~su=on",
  "{~e,~ed}=and",
  "~è=is",
  "~o=or",
  // Secrets
  "{la chiave privata,chiave privata}=the private key",
  "chiavi private=private keys",
  "{la chiave ssh,chiave ssh}=the SSH key",
  "chiave=key",
  "chiavi=keys",
  "chiave api=API key",
  "chiavi api=API keys",
  "tutte le chiavi api=all API keys",
  "~password=password",
  "credenziali=credentials",
  "variabili {d'ambiente,di ambiente}=environment variables",
  "tutte le variabili {d'ambiente,di ambiente}=all environment variables",
  "segreto=secret",
  "segreti=secrets",
  "cronologia della conversazione=conversation history",
  "cronologia=history",
  "prompt di sistema=the system prompt",
  // Running something
  "esegui!=run",
  "esegua!=run",
  "esegue=runs",
  "eseguire=run",
  "non serve {dirlo,dirlo all'utente}=do not tell the user",
];

// Chinese, simplified and traditional side by side. Substrings, so a short key that is part of a
// common longer word gets that word as an entry of its own ("时间" keeps "时" from reading "when").
const ZH: readonly string[] = [
  // Directives
  "{你,您}必{须,須}!=you must",
  "必{须,須}!=you must",
  "一定要!=you must",
  "{务,務}必!=make sure to",
  "{请,請}{务必,務必,确保,確保}!=make sure to",
  "{确保,確保}!=make sure to",
  "{请,請}!=please",
  "{你,您}!=you",
  "{你,您}的=your",
  "{总是,總是,始终,始終,一律}=always",
  "每次=every time",
  "{首先,先,事先,预先,預先}=first",
  "{强制,強制}=mandatory",
  "{必需,必要,必填}=required",
  "需要=need to",
  "<{在,当,當}=",
  "{当前,當前}=current",
  "{当然,當然}=of course",
  "{应当,應當}=should",
  "{适当,適當}=appropriate",
  "{相当,相當}=quite",
  "{当时,當時}=then",
  ">之前=before",
  ">{时,時,时候,時候,的时候,的時候}=when",
  ">{之后,之後,以后,以後}=after",
  "{正在,存在,现在,現在,在线,在線,所在,实在,實在,在于,在於}=",
  "{时间,時間}=time",
  "{同时,同時}=also",
  "{超时,超時}=timeout",
  "{实时,實時}=real-time",
  "{临时,臨時}=temporary",
  "{小时,小時}=hour",
  "{及时,及時,随时,隨時}=promptly",
  "{暂时,暫時}=temporarily",
  "{有时,有時}=sometimes",
  "{时区,時區}=time zone",
  "{原先,先前}=previous",
  // Precedence
  "{忽略,忽视,忽視,无视,無視}{之前的所有,之前所有的,所有之前的,以上所有,以前的所有}{指令,指示}!=ignore all previous instructions",
  "{忽略,忽视,忽視,无视,無視}=ignore|ignores|ignoring",
  "{之前的所有,之前所有的,所有之前的,以上所有,以前的所有}{指令,指示}=all previous instructions",
  "{之前的,先前的,以前的}{指令,指示}=previous instructions",
  "{指令,指示}=instructions",
  "{规则,規則}=rules",
  "{此,本,该,該}{描述,说明,說明}=this description",
  "{描述,说明,說明}=description",
  "{优先于,優先於}=has priority over",
  "{优先,優先}=priority",
  "{用户,用戶,使用者}的{请求,請求,要求}=the user's request",
  "{无论,無論,不管}{用户,用戶,使用者}{要求,请求,請求,说,說}什么=regardless of what the user asked",
  "{无论,無論,不管}{用户,用戶,使用者}=regardless of what the user",
  "{无论,無論,不管}=regardless of",
  "{要求,请求,請求}=request",
  // Secrecy
  "{不要,别,別,切勿,不可,不得}{告诉,告訴}{用户,用戶,使用者}!=do not tell the user",
  "{不要,别,別}{让,讓}{用户,用戶,使用者}{知道,发现,發現,察觉,察覺}!=do not tell the user",
  "{不要,别,別}{通知,提醒}{用户,用戶,使用者}!=do not tell the user",
  "{用户,用戶,使用者}不{要,需要,必}知道=do not tell the user",
  "不{告诉,告訴,通知}{用户,用戶,使用者}=without telling the user",
  "在不{告诉,告訴,通知}{用户,用戶,使用者}的{情况,情況}下=without telling the user",
  "{瞒着,瞞著,背着,背著}{用户,用戶,使用者}=without telling the user",
  "{不要,别,別}{提及,提到,提起}!=do not mention",
  "{不要,别,別}{告诉,告訴,说,說}!=do not tell",
  "不要!=do not",
  "{切勿,永远不要,永遠不要,绝不,絕不,千万不要,千萬不要,从不,從不}=never",
  "{悄悄,悄悄地,偷偷,偷偷地,秘密地,暗中,私下}=secretly",
  "{静默,靜默,静默地,靜默地,默默,默默地}=silently",
  "{无需确认,無需確認,无需询问,無需詢問,不经询问,不經詢問}=without asking",
  "{告诉,告訴}=tell|tells",
  "{提及,提到}=mention|mentions",
  "{别的,別的}=other",
  "{别人,別人}=others",
  // Reading and moving data
  "{读取,讀取,读,讀,阅读,閱讀}=read|reads|reading",
  "{只读,只讀,唯读,唯讀}=read-only",
  "{读写,讀寫}=read-write",
  "{打开,打開}=open|opens|opening",
  "{复制,複製,拷贝,拷貝}=copy|copies|copying",
  "收集=collect|collects|collecting",
  "{发送,發送,传送,傳送}{到,至}=send to|sends to|sending to",
  "{发到,發到}=send to|sends to|sending to",
  "{发送,發送,传送,傳送}=send|sends|sending",
  "{上传,上傳}到=upload to|uploads to|uploading to",
  "{上传,上傳}=upload|uploads|uploading",
  "{转发,轉發}=forward|forwards|forwarding",
  "{发布,發布,發佈}=post|posts|posting",
  "{包含,包括}=include|includes|including",
  "{附加,附上}=attach|attaches|attaching",
  "{粘贴,粘貼,贴上,貼上}=paste|pastes|pasting",
  "{放入,放到,放在,填入}=put in|puts in|putting in",
  "{传递,傳遞}=pass|passes|passing",
  "{传给,傳給}=pass to|passes to|passing to",
  "{写入,寫入}=write|writes|writing",
  "返回=returns",
  "列出=lists",
  "搜索=searches",
  "{创建,創建}=creates",
  "{消息,訊息}=message",
  "{邮件,郵件}=email",
  "收件人=recipient",
  "{目录,目錄,文件夹,文件夾,資料夾}=folder",
  "{路径,路徑}=path",
  "指定的=given",
  "{作为,作為}{参数,參數}=as the parameter",
  "{参数,參數}=parameter",
  "{字段,欄位}=field",
  "到=to",
  "{得到,收到,找到,看到,达到,達到,直到,遇到,到达,到達}=",
  "{并且,並且,并,並,和,与,與,以及,及}=and",
  "{或者,或}=or",
  "{从,從}=from",
  "{的,把,将,將}=",
  "{即将,即將,将来,將來}=soon",
  // Calling and using
  "使用=use|uses|using",
  "{调用,調用,呼叫}=call|calls|calling",
  "利用=use|uses|using",
  "{运行,運行,执行,執行}=run|runs|running",
  // Destruction and change
  "{删除,刪除}=delete|deletes|deleting",
  "移除=remove|removes|removing",
  "{覆盖,覆蓋,覆写,覆寫}=overwrite|overwrites|overwriting",
  "清空=empty|empties|emptying",
  "{抹去,擦除}=erase|erases|erasing",
  "修改=modify|modifies|modifying",
  "更改=change|changes|changing",
  "{改为,改為,改成}=change to|changes to|changing to",
  "{替换,替換}=replace|replaces|replacing",
  "{设置,設置,设定,設定}=set|sets|setting",
  "{设为,設為}=set to|sets to|setting to",
  "{转账,轉帳,轉賬,转移,轉移}=transfer|transfers|transferring",
  // Nouns and pronouns
  "{所有,全部,所有的}=all",
  "一切=everything",
  "{每个,每個}=every",
  "任何=any",
  "{其他,其它}{工具,的工具}=other tools",
  "{其他,其它}=other",
  "{此,本}工具=this tool",
  "{此,这个,這個,这,這}=this",
  "{该,該}=the",
  "{它们,它們}=them",
  "{它,其}=it",
  "{内容,內容}=the contents",
  "{文件,檔案}=file",
  "{用户,用戶,使用者}=the user",
  "工具=tool",
  "{地址,网址,網址}=address",
  "{服务器,服務器,伺服器}=server",
  // Secrets
  "{私钥,私鑰}=the private key",
  "*{密钥,密鑰,秘钥,秘鑰}=key|keys",
  "*{密码,密碼,口令}=password|passwords",
  "{凭据,憑據,凭证,憑證,认证信息,認證資訊}=credentials",
  "{环境变量,環境變量,環境變數}=environment variables",
  "*令牌=token|tokens",
  "{秘密,机密,機密}=secret",
  "{对话历史,對話歷史,对话记录,對話記錄,聊天记录,聊天記錄,会话历史,會話歷史}=conversation history",
  "{历史记录,歷史記錄}=history",
  "{系统提示词,系統提示詞,系统提示,系統提示}=the system prompt",
];

// Japanese. Hiragana particles stay as they are: they are not ASCII, so the English matcher skips them.
const JA: readonly string[] = [
  // Directives
  "必ず!=make sure to",
  "確実に!=make sure to",
  "{常に,いつも}=always",
  "毎回=every time",
  "{最初に,まず,先に,事前に,あらかじめ,予め}=first",
  ">{前に,する前に}=before",
  ">{ときは,時は,ときに,時に,際は,際に,場合は}=when",
  ">{後に,あとで,後で,した後,したあと}=after",
  "{以前の,以前}=previous",
  "{名前,直前,前回}=",
  "{最後,その後,今後}=",
  "{なければなりません,なければならない,ねばならない}!=must",
  "{必要があります,必要がある,必須です,必須}=required",
  "{義務付け,義務}=mandatory",
  "{してください,して下さい,ください,下さい,なさい,しろ,せよ,すること}!=",
  "{あなたは,あなた}!=you",
  "あなたの=your",
  // Precedence
  "{以前,これまで,今まで,前}の指示を{すべて,全て}無視!=ignore all previous instructions",
  "無視して!=ignore",
  "無視=ignore|ignores|ignoring",
  "{以前,これまで,今まで,前}の指示をすべて=all previous instructions",
  "{以前,これまで,今まで}のすべての指示=all previous instructions",
  "すべての指示=all instructions",
  "{以前,これまで,今まで}の指示=previous instructions",
  "{指示,命令}=instructions",
  "ルール=rules",
  "この説明=this description",
  "説明=description",
  "{ユーザー,ユーザ,利用者}の{要求,依頼,指示,リクエスト}{よりも,より}優先=has priority over the user's request",
  "{よりも,より}優先=has priority over",
  "優先=priority",
  "{ユーザー,ユーザ,利用者}の{要求,依頼,指示,リクエスト}=the user's request",
  "{ユーザー,ユーザ,利用者}が何を{求め,要求し,依頼し,指示し}ても=regardless of what the user asked",
  "{ユーザー,ユーザ,利用者}の{要求,依頼,指示}に関係なく=regardless of what the user asked",
  "{に関係なく,関係なく}=regardless",
  "要求=request",
  // Secrecy
  "{ユーザー,ユーザ,利用者}{には,に}{伝え,言わ,知らせ,教え,報告し}ないで!=do not tell the user",
  "{ユーザー,ユーザ,利用者}{には,に}{伝え,言わ,知らせ,教え}ずに=without telling the user",
  "{ユーザー,ユーザ,利用者}に{知られ,気づかれ}ないように=without telling the user",
  "{伝え,言わ,知らせ,教え}ないで!=do not tell",
  "{言及し,触れ}ないで!=do not mention",
  "{秘密に,こっそり,ひそかに,密かに,内緒で}=secretly",
  "{黙って,静かに}=silently",
  "{確認せずに,確認なしで,尋ねずに}=without asking",
  "決して=never",
  // Reading and moving data
  "{読み取って,読み込んで,読んで}!=read",
  "{読み取り,読み取る,読み込み,読み込む,読む}=read|reads|reading",
  "{読み取ります,読み込みます,読みます}=reads",
  "開いて!=open",
  "開く=open|opens|opening",
  "開きます=opens",
  "コピーして!=copy",
  "コピー=copy|copies|copying",
  "{収集して,集めて}!=collect",
  "収集=collect|collects|collecting",
  "{送信して,送って}!=send",
  "{送信,送る}=send|sends|sending",
  "{送信します,送ります}=sends",
  "送信先=destination",
  "アップロードして!=upload",
  "アップロード=upload|uploads|uploading",
  "転送して!=forward",
  "転送=forward|forwards|forwarding",
  "投稿して!=post",
  "投稿=post|posts|posting",
  "含めて!=include",
  "含める=include|includes|including",
  "含めます=includes",
  "入れて!=put",
  "入れる=put|puts|putting",
  "添付して!=attach",
  "添付=attach|attaches|attaching",
  "貼り付けて!=paste",
  "貼り付け=paste|pastes|pasting",
  "渡して!=pass",
  "渡す=pass|passes|passing",
  "書き込んで!=write",
  "書き込み=write|writes|writing",
  "{返します,返す}=returns",
  "一覧=list",
  "検索=search|searches|searching",
  "作成=create|creates|creating",
  "メッセージ=message",
  "メール=email",
  "宛先=recipient",
  "{ディレクトリ,フォルダー,フォルダ}=folder",
  "指定された=given",
  "{パラメータ,パラメーター,引数}として=as the parameter",
  "{パラメータ,パラメーター,引数}に=in the parameter",
  // Calling and using
  "呼び出して!=call",
  "{呼び出す,呼び出し}=call|calls|calling",
  "呼び出します=calls",
  "{使用して,使って,利用して}!=use",
  "{使用,使う,利用}=use|uses|using",
  "{使用します,使います,利用します}=uses",
  "実行して!=run",
  "実行=run|runs|running",
  // Destruction and change
  "{削除して,消して}!=delete",
  "削除=delete|deletes|deleting",
  "削除します=deletes",
  "消去=erase|erases|erasing",
  "上書きして!=overwrite",
  "上書き=overwrite|overwrites|overwriting",
  "{変更して,変えて}!=change",
  "変更=change|changes|changing",
  "書き換えて!=modify",
  "書き換え=modify|modifies|modifying",
  "置き換えて!=replace",
  "{置き換え,置換}=replace|replaces|replacing",
  "設定して!=set",
  "設定=set|sets|setting",
  "空にして!=empty",
  "{送金して,振り込んで}!=transfer",
  "{送金,振込}=transfer|transfers|transferring",
  // Nouns and pronouns
  "{ユーザー,ユーザ,利用者,使用者}=the user",
  "ファイル=file",
  "{内容,中身}=the contents",
  "ツール=tool",
  "{他の,ほかの,別の,他}ツール=other tools",
  "このツール=this tool",
  "{パラメータ,パラメーター}=parameter",
  "引数=argument",
  "アドレス=address",
  "{サーバー,サーバ}=server",
  "{すべての,すべて,全ての,全て,全部}=all",
  "あらゆる=every",
  "{これ,この}=this",
  "それら=them",
  "それ=it",
  "{および,及び,そして}=and",
  "から=from",
  // Secrets
  "秘密鍵=the private key",
  "公開鍵=public key",
  "鍵=key",
  "*キー=key|keys",
  "*パスワード=password|passwords",
  "{認証情報,資格情報}=credentials",
  "環境変数=environment variables",
  "*トークン=token|tokens",
  "{秘密,シークレット}=secret",
  "{会話履歴,会話の履歴,チャット履歴}=conversation history",
  "履歴=history",
  "システムプロンプト=the system prompt",
];

type Role = "word" | "plural" | "opener" | "closer";

interface Entry {
  /** The base (imperative, infinitive or singular) English; "" drops the source word. */
  base: string;
  /** An ambiguous verb's third-person English, or a CJK noun's plural. */
  alt: string | undefined;
  gerund: string | undefined;
  /** Also an English word, so never evidence of the language. */
  weak: boolean;
  /** Speaks to the reader: the sentence is an instruction. */
  addressed: boolean;
  role: Role;
}

interface LatinEntry extends Entry {
  lang: number;
  words: readonly string[];
}

interface CjkEntry extends Entry {
  key: string;
}

/** A trie over UTF-16 code units, so the longest key at a position costs at most its length to find. */
interface TrieNode {
  entry: CjkEntry | undefined;
  next: Map<number, TrieNode>;
}

interface CjkTable {
  root: TrieNode;
  /** Japanese puts a clause's verb last, so a closer moves to the clause start with its verb. */
  hoist: boolean;
}

interface Token {
  start: number;
  end: number;
  norm: string;
  /** After a slash in the same run of non-space characters: part of a path or URL. */
  path: boolean;
}

/** Expand `{a,b}` choices in a key into every spelling. */
function expand(key: string): string[] {
  const open = key.indexOf("{");
  if (open < 0) return [key];
  const close = key.indexOf("}", open);
  const tails = expand(key.slice(close + 1));
  const out: string[] = [];
  for (const choice of key.slice(open + 1, close).split(",")) {
    for (const tail of tails) out.push(key.slice(0, open) + choice + tail);
  }
  return out;
}

/** One table line: its keys (flags stripped per choice) and the entry they share. */
function parseLine(line: string): { keys: string[]; entry: Entry } {
  const equals = line.indexOf("=");
  let key = line.slice(0, equals);
  let role: Role = "word";
  if (key.startsWith("*")) role = "plural";
  else if (key.startsWith("<")) role = "opener";
  else if (key.startsWith(">")) role = "closer";
  if (role !== "word") key = key.slice(1);
  const addressed = key.endsWith("!");
  if (addressed) key = key.slice(0, -1);
  const [base = "", alt = "", gerund = ""] = line.slice(equals + 1).split("|");
  const entry: Entry = { base, alt: alt || undefined, gerund: gerund || undefined, weak: false, addressed, role };
  return { keys: expand(key), entry };
}

/** A key's spelling and whether it was marked weak (`~` may sit on one choice: "{der,~die}"). */
function weakKey(key: string): [string, boolean] {
  return key.startsWith("~") ? [key.slice(1), true] : [key, false];
}

/** CJK punctuation and brackets, as the ASCII S8's sentence and quote handling know. */
const CJK_PUNCTUATION = new Map<number, string>([
  [0x3002, "."],
  [0xff0c, ","],
  [0x3001, ","],
  [0xff01, "!"],
  [0xff1f, "?"],
  [0xff1a, ":"],
  [0xff1b, ";"],
  [0xff0e, "."],
  [0xff08, "("],
  [0xff09, ")"],
  [0x300c, '"'],
  [0x300d, '"'],
  [0x300e, '"'],
  [0x300f, '"'],
]);

/** A sentence longer than this is cut at the next space, and hard at twice the length, so work per sentence stays bounded. */
const SENTENCE_SOFT = 2048;
const SENTENCE_HARD = 4096;
/** How many parts a clause holds before its clause markers stop looking back, so moving them stays constant work. */
const CLAUSE_PARTS = 64;
/** Words after "all" within which a CJK noun reads as plural ("所有 API 密钥"). */
const ALL_REACH = 3;
/**
 * Strong words a sentence needs to be read as a language; one is enough in a sentence this short, or
 * beside this many of the language's weak words ("Envía un correo al destinatario": one verb, two articles).
 */
const MIN_EVIDENCE = 2;
const SHORT_SENTENCE = 4;

const MARKS = /[\u0300-\u036f]/g;

function isLatinLetter(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 0xc0 && code <= 0x24f && code !== 0xd7 && code !== 0xf7) ||
    (code >= 0x300 && code <= 0x36f) ||
    (code >= 0x1e00 && code <= 0x1eff)
  );
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0 || code === 0x3000;
}

function isClauseMark(code: number): boolean {
  return code === 0x2c || code === 0x3b || code === 0x3a || code === 0x2e || code === 0x21 || code === 0x3f;
}

/** After a dot or colon: a character that keeps a URL, path or number going. */
function continuesWord(code: number): boolean {
  return !Number.isNaN(code) && !isSpace(code) && code < 0x2e80;
}

function isKana(code: number): boolean {
  return (code >= 0x3040 && code <= 0x30ff) || (code >= 0xff66 && code <= 0xff9f);
}

/**
 * Lower case without accents, so "Envía", "envia" and "ENVÍA" are one key. A word of one letter keeps
 * its accent: "è" (is) and "e" (and), "à" (to) and "a" (has) are different words.
 */
function normWord(raw: string): string {
  for (let index = 0; index < raw.length; index++) {
    if (raw.charCodeAt(index) > 127) {
      const bare = raw
        .normalize("NFD")
        .replace(MARKS, "")
        .toLowerCase()
        .replace(/ß/g, "ss")
        .replace(/\u2019/g, "'");
      return bare.length === 1 ? raw.normalize("NFC").toLowerCase() : bare;
    }
  }
  return raw.toLowerCase();
}

/**
 * Latin-script words between two offsets. An elision ends its word with the apostrophe ("l'",
 * "d'", "all'"), so "l'utilisateur" is two words, as the tables write it.
 */
function latinTokens(text: string, from: number, to: number): Token[] {
  const out: Token[] = [];
  let index = from;
  let path = false;
  while (index < to) {
    const first = text.charCodeAt(index);
    if (!isLatinLetter(first)) {
      if (first === 0x2f || first === 0x5c) path = true;
      else if (isSpace(first)) path = false;
      index++;
      continue;
    }
    const start = index;
    index++;
    while (index < to) {
      const code = text.charCodeAt(index);
      if (isLatinLetter(code) || (code >= 48 && code <= 57)) {
        index++;
      } else {
        if ((code === 0x27 || code === 0x2019) && index + 1 < to && isLatinLetter(text.charCodeAt(index + 1))) index++;
        break;
      }
    }
    out.push({ start, end: index, norm: normWord(text.slice(start, index)), path });
  }
  return out;
}

/** Between two words of a phrase: spaces, a hyphen or a comma ("assure-toi", "unabhängig davon, was"). */
function softGap(text: string, from: number, to: number): boolean {
  if (to - from > 3) return false;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code !== 32 && code !== 9 && code !== 0xa0 && code !== 0x2d && code !== 0x2c) return false;
  }
  return true;
}

/** Part of a path, URL, address or identifier (`/tmp/file`, `x.example`, `id_rsa`): left as written. */
function embedded(text: string, start: number, end: number): boolean {
  const before = start > 0 ? text[start - 1] : undefined;
  if (before !== undefined && "/\\_@.~$#%".includes(before)) return true;
  const after = text[end];
  if (after === undefined) return false;
  if ("/\\_@".includes(after)) return true;
  if (after === "." || after === ":") {
    const next = text.charCodeAt(end + 1);
    return next === 0x2f || isLatinLetter(next) || (next >= 48 && next <= 57);
  }
  return false;
}

const LATIN_TABLES: readonly (readonly string[])[] = [DE, FR, ES, PT, IT];
/** German writes nouns with a capital, so "Das Senden" is "the sending", not "send". */
const GERMAN = 0;

/** The Latin-script tables by first word, built on the first text that needs them: most text is English and never does. */
let latinTables: Map<string, LatinEntry[]> | null = null;

function latinTable(): Map<string, LatinEntry[]> {
  if (latinTables !== null) return latinTables;
  const table = new Map<string, LatinEntry[]>();
  for (const [lang, lines] of LATIN_TABLES.entries()) {
    for (const line of lines) {
      const { keys, entry } = parseLine(line);
      for (const raw of keys) {
        const [key, weak] = weakKey(raw);
        const words = latinTokens(key, 0, key.length).map((token) => token.norm);
        // An elision written alone ("l'", "all'") keeps its apostrophe: "all" is an English word.
        if (key.endsWith("'") && words.length > 0) words[words.length - 1] += "'";
        const first = words[0];
        if (first === undefined) continue;
        const list = table.get(first) ?? [];
        list.push({ ...entry, weak, lang, words });
        table.set(first, list);
      }
    }
  }
  // Longest phrase first, so "no se lo digas al usuario" wins over "no".
  for (const list of table.values()) list.sort((a, b) => b.words.length - a.words.length);
  latinTables = table;
  return table;
}

function cjkTable(table: readonly string[], hoist: boolean): CjkTable {
  const root: TrieNode = { entry: undefined, next: new Map() };
  for (const line of table) {
    const { keys, entry } = parseLine(line);
    for (const key of keys) {
      let node = root;
      for (let index = 0; index < key.length; index++) {
        const code = key.charCodeAt(index);
        let child = node.next.get(code);
        if (child === undefined) {
          child = { entry: undefined, next: new Map() };
          node.next.set(code, child);
        }
        node = child;
      }
      // The first line that spells a key keeps it.
      node.entry ??= { ...entry, key };
    }
  }
  return { root, hoist };
}

let chineseTable: CjkTable | null = null;
let japaneseTable: CjkTable | null = null;
/** The Chinese and Japanese tries, built on first use. */
function cjkFor(kana: boolean): CjkTable {
  if (kana) {
    if (japaneseTable === null) japaneseTable = cjkTable(JA, true);
    return japaneseTable;
  }
  if (chineseTable === null) chineseTable = cjkTable(ZH, false);
  return chineseTable;
}

/** Whether an entry's words stand at a token, as prose rather than inside a path or identifier. */
function phraseAt(text: string, tokens: readonly Token[], at: number, entry: LatinEntry): boolean {
  if (at + entry.words.length > tokens.length) return false;
  for (let offset = 1; offset < entry.words.length; offset++) {
    const previous = tokens[at + offset - 1] as Token;
    const token = tokens[at + offset] as Token;
    if (token.norm !== entry.words[offset] || !softGap(text, previous.end, token.start)) return false;
  }
  const first = tokens[at] as Token;
  return !first.path && !embedded(text, first.start, (tokens[at + entry.words.length - 1] as Token).end);
}

/** The longest entry of one language at a token. */
function latinAt(text: string, tokens: readonly Token[], at: number, lang: number): LatinEntry | undefined {
  const list = latinTable().get((tokens[at] as Token).norm);
  if (list === undefined) return undefined;
  for (const entry of list) if (entry.lang === lang && phraseAt(text, tokens, at, entry)) return entry;
  return undefined;
}

/** The longest CJK key that starts at a position. */
function cjkAt(table: CjkTable, text: string, at: number, end: number): CjkEntry | undefined {
  let node: TrieNode | undefined = table.root;
  let found: CjkEntry | undefined;
  for (let index = at; index < end; index++) {
    node = node.next.get(text.charCodeAt(index));
    if (node === undefined) break;
    if (node.entry !== undefined) found = node.entry;
  }
  return found;
}

interface Reading {
  /** The Latin-script language the sentence is in, or -1. */
  lang: number;
  cjk: CjkTable | undefined;
  addressed: boolean;
}

/** Which language a sentence is in, by its strong words, and whether it speaks to the reader. */
function readSentence(text: string, start: number, end: number, tokens: readonly Token[], hasCjk: boolean, hasKana: boolean): Reading {
  const evidence = LATIN_TABLES.map(() => 0);
  const weak = LATIN_TABLES.map(() => 0);
  const plain = LATIN_TABLES.map(() => 0);
  const addressed = LATIN_TABLES.map(() => false);
  for (let at = 0; at < tokens.length; at++) {
    const list = latinTable().get((tokens[at] as Token).norm);
    if (list === undefined) continue;
    let seen = 0;
    // One pass over the candidates: the first match of each language is its longest.
    for (const entry of list) {
      const lang = entry.lang;
      if ((seen & (1 << lang)) !== 0 || !phraseAt(text, tokens, at, entry)) continue;
      seen |= 1 << lang;
      if (entry.weak) weak[lang] = (weak[lang] as number) + 1;
      else evidence[lang] = (evidence[lang] as number) + 1;
      // A capital inside a sentence may be a name or an acronym ("Austin Schick", "DER format"): not enough on its own.
      const code = text.charCodeAt((tokens[at] as Token).start);
      if (!entry.weak && (at === 0 || code < 65 || code > 90)) plain[lang] = (plain[lang] as number) + 1;
      if (entry.addressed) addressed[lang] = true;
    }
  }
  let lang = -1;
  let best = 0;
  for (const [index, count] of evidence.entries()) {
    if (count > best) {
      best = count;
      lang = index;
    }
  }
  if (lang >= 0 && best < MIN_EVIDENCE) {
    const enough = tokens.length <= SHORT_SENTENCE || (weak[lang] as number) >= MIN_EVIDENCE;
    if (!enough || plain[lang] !== 1) lang = -1;
  }
  const cjk = hasCjk ? cjkFor(hasKana) : undefined;
  let speaks = lang >= 0 && addressed[lang] === true;
  if (cjk !== undefined && !speaks) {
    for (let at = start; at < end; ) {
      const entry = cjkAt(cjk, text, at, end);
      if (entry?.addressed) {
        speaks = true;
        break;
      }
      at += entry === undefined ? 1 : entry.key.length;
    }
  }
  return { lang, cjk, addressed: speaks };
}

/** A glossed verb already written, which a later clause marker may rewrite as a gerund. */
interface Placed {
  index: number;
  lead: string;
  trail: string;
  entry: Entry;
}

/** Output of one sentence, with the clause state CJK markers need. */
class SentenceWriter {
  readonly parts: string[] = [];
  changed = false;
  private raw: number;
  private tail = -1;
  private clauseStart = 0;
  private opener = -1;
  private verbAfterOpener: Placed | undefined;
  private firstVerb: Placed | undefined;
  private lastVerb: Placed | undefined;
  private allPending = 0;

  constructor(
    private readonly text: string,
    start: number,
    private readonly addressed: boolean,
  ) {
    this.raw = start;
    this.tail = start > 0 ? text.charCodeAt(start - 1) : -1;
    this.beginClause();
  }

  /** Copy the source up to `to`. */
  flush(to: number): void {
    if (this.raw < to) {
      this.parts.push(this.text.slice(this.raw, to));
      this.tail = this.text.charCodeAt(to - 1);
    }
    this.raw = to;
  }

  beginClause(): void {
    this.clauseStart = this.parts.length;
    this.parts.push("");
    this.opener = -1;
    this.verbAfterOpener = undefined;
    this.firstVerb = undefined;
    this.lastVerb = undefined;
    this.allPending = 0;
  }

  /** A word left as written: only counts toward the reach of "all". */
  passWord(): void {
    if (this.allPending > 0) this.allPending--;
  }

  english(entry: Entry, nominal: boolean): string {
    if (entry.role === "plural") return this.allPending > 0 && entry.alt !== undefined ? entry.alt : entry.base;
    if (nominal && entry.gerund !== undefined) return entry.gerund;
    if (entry.alt !== undefined && !this.addressed) return entry.alt;
    return entry.base;
  }

  private push(words: string, lead: string, trail: string): number {
    const written = lead + words + trail;
    this.parts.push(written);
    if (written !== "") this.tail = written.charCodeAt(written.length - 1);
    this.changed = true;
    return this.parts.length - 1;
  }

  private noteAll(words: string): void {
    this.allPending = words === "all" || words.endsWith(" all") ? ALL_REACH : Math.max(0, this.allPending - 1);
  }

  /** Replace Latin words [from, to) with English; the spaces around them are the source's. */
  latin(from: number, to: number, entry: LatinEntry, nominal: boolean): void {
    this.flush(from);
    const words = this.english(entry, nominal);
    // An elision is written against its word ("l'utente"); its English is a word of its own.
    const last = this.text.charCodeAt(to - 1);
    const joined = (last === 0x27 || last === 0x2019) && isLatinLetter(this.text.charCodeAt(to));
    this.push(words, "", joined && words !== "" ? " " : "");
    this.noteAll(words);
    this.raw = to;
  }

  /** Replace CJK text [from, to) with English set off by spaces, or act on a clause marker. */
  cjk(from: number, to: number, entry: CjkEntry, hoist: boolean): void {
    this.flush(from);
    this.raw = to;
    if (this.parts.length - this.clauseStart > CLAUSE_PARTS) this.beginClause();
    if (entry.role === "opener") {
      this.opener = this.push("", "", "");
      return;
    }
    if (entry.role === "closer" && this.closeClause(entry, hoist)) return;
    const words = this.english(entry, false);
    this.noteAll(words);
    if (words === "") {
      this.changed = true;
      return;
    }
    const lead = this.tail < 0 || isSpace(this.tail) || this.tail === 0x28 || this.tail === 0x22 ? "" : " ";
    const next = this.text.charCodeAt(to);
    const trail = Number.isNaN(next) || isSpace(next) || CJK_PUNCTUATION.has(next) || ".,;:!?)\"'".includes(String.fromCharCode(next)) ? "" : " ";
    const index = this.push(words, lead, trail);
    if (entry.gerund !== undefined) {
      const placed: Placed = { index, lead, trail, entry };
      if (this.opener >= 0 && this.verbAfterOpener === undefined) this.verbAfterOpener = placed;
      if (this.firstVerb === undefined) this.firstVerb = placed;
      this.lastVerb = placed;
    }
  }

  /**
   * A clause marker ("之前", "前に") framing a verb: its English goes before the verb, which becomes a
   * gerund ("before calling"). False when there is no verb to frame: the marker is glossed in place.
   */
  private closeClause(entry: CjkEntry, hoist: boolean): boolean {
    if (hoist) {
      const verb = this.lastVerb;
      if (verb === undefined) return false;
      this.parts[this.clauseStart] += ` ${entry.base} ${verb.entry.gerund ?? verb.entry.base} `;
      this.parts[verb.index] = verb.lead === "" && verb.trail === "" ? "" : " ";
      this.lastVerb = undefined;
      this.changed = true;
      return true;
    }
    if (this.opener >= 0) {
      this.parts[this.opener] = ` ${entry.base} `;
      const verb = this.verbAfterOpener;
      if (verb !== undefined) this.parts[verb.index] = verb.lead + (verb.entry.gerund ?? verb.entry.base) + verb.trail;
      this.opener = -1;
      this.verbAfterOpener = undefined;
      this.changed = true;
      return true;
    }
    const verb = this.firstVerb;
    if (verb === undefined) return false;
    this.parts[verb.index] = `${verb.lead}${entry.base} ${verb.entry.gerund ?? verb.entry.base}${verb.trail}`;
    this.firstVerb = undefined;
    this.changed = true;
    return true;
  }

  /** CJK punctuation as ASCII, with the space after it that ASCII prose would have. */
  punctuation(at: number, mark: string): void {
    this.flush(at);
    const next = this.text.charCodeAt(at + 1);
    const space = ".,;:!?".includes(mark) && !Number.isNaN(next) && !isSpace(next) ? " " : "";
    this.parts.push(mark + space);
    this.tail = (mark + space).charCodeAt(mark.length + space.length - 1);
    this.raw = at + 1;
    this.beginClause();
  }
}

function glossSentence(text: string, start: number, end: number, tokens: readonly Token[], reading: Reading): SentenceWriter {
  const writer = new SentenceWriter(text, start, reading.addressed);
  const { lang, cjk } = reading;
  let next = 0;
  let at = start;
  while (at < end) {
    const token = tokens[next];
    if (token !== undefined && token.start === at) {
      const entry = lang >= 0 ? latinAt(text, tokens, next, lang) : undefined;
      if (entry === undefined) {
        writer.passWord();
        at = token.end;
        next++;
        continue;
      }
      const last = tokens[next + entry.words.length - 1] as Token;
      // A German verb written with a capital inside a sentence is a noun: "das Senden" is "the sending".
      const code = text.charCodeAt(token.start);
      const nominal = lang === GERMAN && next > 0 && code >= 65 && code <= 90 && entry.words.length === 1;
      writer.latin(token.start, last.end, entry, nominal);
      at = last.end;
      next += entry.words.length;
      continue;
    }
    const code = text.charCodeAt(at);
    if (cjk !== undefined) {
      if (code >= 0x2e80) {
        const entry = cjkAt(cjk, text, at, end);
        if (entry !== undefined) {
          writer.cjk(at, at + entry.key.length, entry, cjk.hoist);
          at += entry.key.length;
          continue;
        }
        const mark = CJK_PUNCTUATION.get(code);
        if (mark !== undefined) writer.punctuation(at, mark);
      } else if (isClauseMark(code) && !continuesWord(text.charCodeAt(at + 1))) {
        // Only punctuation that ends a phrase: the dots and colons of "https://x.example" do not.
        writer.flush(at + 1);
        writer.beginClause();
      }
    }
    at++;
  }
  writer.flush(end);
  return writer;
}

/** An English gloss of text in German, French, Spanish, Portuguese, Italian, Chinese or Japanese; null when it holds none of their known words. */
export function glossText(text: string): string | null {
  // Sentence by sentence, each read twice at most (which language, then the gloss), so the work is
  // linear; a sentence whose gloss would take the whole past four times the text stays as written.
  const out: string[] = [];
  const budget = 4 * text.length + 64;
  let length = 0;
  let changed = false;
  let start = 0;
  while (start < text.length) {
    let end = start;
    let hasCjk = false;
    let hasKana = false;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      end++;
      if (code >= 0x2e80) {
        hasCjk = true;
        if (isKana(code)) hasKana = true;
        if (code === 0x3002 || code === 0xff01 || code === 0xff1f) break;
      }
      if (code === 10) break;
      if ((code === 0x2e || code === 0x21 || code === 0x3f || code === 0x3b) && (end >= text.length || isSpace(text.charCodeAt(end)))) break;
      const size = end - start;
      if (size >= SENTENCE_HARD || (size >= SENTENCE_SOFT && isSpace(code))) break;
    }
    const tokens = latinTokens(text, start, end);
    const reading = readSentence(text, start, end, tokens, hasCjk, hasKana);
    let piece = "";
    if (reading.lang >= 0 || reading.cjk !== undefined) {
      const writer = glossSentence(text, start, end, tokens, reading);
      if (writer.changed) {
        piece = writer.parts.join("");
        // Spaces set around CJK glosses can double up or stand before punctuation; tidy them for the reader.
        if (reading.cjk !== undefined) piece = piece.replace(/ {2,}/g, " ").replace(/ ([.,;:!?])(?=\s|$)/g, "$1");
        const before = out.length > 0 ? (out[out.length - 1] as string) : "";
        if (piece.startsWith(" ") && (before === "" || isSpace(before.charCodeAt(before.length - 1)))) piece = piece.slice(1);
        if (length + piece.length + (text.length - end) > budget) piece = "";
        else changed = true;
      }
    }
    if (piece === "") piece = text.slice(start, end);
    out.push(piece);
    length += piece.length;
    start = end;
  }
  if (!changed) return null;
  const gloss = out.join("");
  return gloss === text ? null : gloss;
}
