// The MARC Code List for Countries code of a repository's ISO 3166-1 country, for 008/15-17 (the
// place of the collection), as ArchivesSpace's MARC exporter fills it; "xx" (no place, unknown)
// for a country the list has no code of its own for. Hong Kong and Macao fall under China's "cc".
// The table is ISO=MARC pairs, a few dozen a line.
const MARC_COUNTRIES: ReadonlyMap<string, string> = new Map(
  [
    "AD=an AE=ts AF=af AG=aq AI=am AL=aa AM=ai AO=ao AQ=ay AR=ag AS=as AT=au AU=at AW=aw AZ=aj BA=bn",
    "BB=bb BD=bg BE=be BF=uv BG=bu BH=ba BI=bd BJ=dm BL=sc BM=bm BN=bx BO=bo BQ=ca BR=bl BS=bf BT=bt",
    "BV=bv BW=bs BY=bw BZ=bh CA=xxc CC=xb CD=cg CF=cx CG=cf CH=sz CI=iv CK=cw CL=cl CM=cm CN=cc CO=ck",
    "CR=cr CU=cu CV=cv CW=co CX=xa CY=cy CZ=xr DE=gw DJ=ft DK=dk DM=dq DO=dr DZ=ae EC=ec EE=er EG=ua",
    "EH=ss ER=ea ES=sp ET=et FI=fi FJ=fj FK=fk FM=fm FO=fa FR=fr GA=go GB=xxk GD=gd GE=gs GF=fg GG=gg",
    "GH=gh GI=gi GL=gl GM=gm GN=gv GP=gp GQ=eg GR=gr GS=xs GT=gt GU=gu GW=pg GY=gy HM=hm HN=ho HR=ci",
    "HT=ht HU=hu ID=io IE=ie IL=is IM=im IN=ii IO=bi IQ=iq IR=ir IS=ic IT=it JE=je JM=jm JO=jo JP=ja",
    "KE=ke KG=kg KH=cb KI=gb KM=cq KN=xd KP=kn KR=ko KW=ku KY=cj KZ=kz LA=ls LB=le LC=xk LI=lh LK=ce",
    "LR=lb LS=lo LT=li LU=lu LV=lv LY=ly MA=mr MC=mc MD=mv ME=mo MF=st MG=mg MH=xe MK=xn ML=ml MM=br",
    "MN=mp MP=nw MQ=mq MR=mu MS=mj MT=mm MU=mf MV=xc MW=mw MX=mx MY=my MZ=mz NA=sx NC=nl NE=ng NF=nx",
    "NG=nr NI=nq NL=ne NO=no NP=np NR=nu NU=xh NZ=nz OM=mk PA=pn PE=pe PF=fp PG=pp PH=ph PK=pk PL=pl",
    "PM=xl PN=pc PR=pr PT=po PW=pw PY=py QA=qa RE=re RO=rm RS=rb RU=ru RW=rw SA=su SB=bp SC=se SD=sj",
    "SE=sw SG=si SH=xj SI=xv SK=xo SL=sl SM=sm SN=sg SO=so SR=sr SS=sd ST=sf SV=es SX=sn SY=sy SZ=sq",
    "TC=tc TD=cd TF=fs TG=tg TH=th TJ=ta TK=tl TL=em TM=tk TN=ti TO=to TR=tu TT=tr TV=tv TW=ch TZ=tz",
    "UA=un UG=ug UM=up US=xxu UY=uy UZ=uz VA=vc VC=xm VE=ve VG=vb VI=vi VN=vm VU=nn WF=wf WS=ws YE=ye",
    "YT=ot ZA=sa ZM=za ZW=rh HK=cc MO=cc",
  ]
    .flatMap((row) => row.split(" "))
    .map((pair) => pair.split("=") as [string, string]),
);

/** 008/15-17: the MARC country code, padded to three characters. */
export function marcCountry(isoCode: string | undefined): string {
  const code = (isoCode === undefined ? undefined : MARC_COUNTRIES.get(isoCode.toUpperCase())) ?? "xx";
  return code.padEnd(3, " ");
}
